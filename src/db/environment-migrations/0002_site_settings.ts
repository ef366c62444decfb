import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// The environment's part of the site: one row (id 1) per environment.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TABLE ${t('site_settings')} (
      id integer PRIMARY KEY CHECK (id = 1),
      locales jsonb NOT NULL,
      timezone text NOT NULL,
      no_index boolean NOT NULL DEFAULT false,
      favicon text,
      theme jsonb NOT NULL,
      global_seo jsonb,
      last_data_change_at timestamptz
    );
  `.execute(db);
}
