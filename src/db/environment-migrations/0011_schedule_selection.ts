import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// What a schedule publishes or withdraws when it is not the whole record, kept as the
// API sent it: `selective_publication` ({content_in_locales, non_localized_content}) for
// a publication, `content_in_locales` (a list) for an unpublishing; NULL for the whole
// record, which is what every schedule made before this migration meant.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`ALTER TABLE ${t('scheduled_actions')} ADD COLUMN selection jsonb`.execute(db);
}
