import { type Kysely, sql } from 'kysely';

// A record event also keeps its record with blocks inline, for webhooks with
// nested_items_in_payload. NULL when the record's model holds no blocks: the nested
// entity is then the plain one, and nothing is stored twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE events
      ADD COLUMN nested_entity jsonb,
      ADD COLUMN nested_previous_entity jsonb
  `.execute(db);
}
