import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// The workflow stage a record is in (meta.stage): the id of a stage of its model's
// workflow, NULL when the model follows none. Records of models that already follow a
// workflow start in its initial stage, as a new record does.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    ALTER TABLE ${t('items')} ADD COLUMN stage text;
    UPDATE ${t('items')} AS i
      SET stage = (
        SELECT s ->> 'id' FROM jsonb_array_elements(w.stages) AS s
        WHERE (s ->> 'initial')::boolean LIMIT 1
      )
      FROM ${t('item_types')} AS m JOIN ${t('workflows')} AS w ON w.id = m.workflow_id
      WHERE m.id = i.item_type_id;
  `.execute(db);
}
