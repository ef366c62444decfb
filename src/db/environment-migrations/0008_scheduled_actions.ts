import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Scheduled publication and unpublishing of records. A record has at most one pending
// schedule of each action; `scheduled_actions` is the work queue the workers claim from
// (the partial index keeps "what is due now" one index probe however many schedules
// failed before), and the record keeps its due times on its own row so every read that
// presents it (meta.publication_scheduled_at / unpublishing_scheduled_at) needs no join.
// Both change together in the same transactions (domain/items/schedules.ts and
// schedule-runs.ts). A schedule goes with its record (ON DELETE CASCADE) and with its
// environment's schema; a fork copies both, so a sandbox's schedules run in the sandbox.
// A schedule that could not run keeps its row with `failed_at` and the reason, and is
// no longer due.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    ALTER TABLE ${t('items')}
      ADD COLUMN publication_scheduled_at timestamptz,
      ADD COLUMN unpublishing_scheduled_at timestamptz;

    CREATE TABLE ${t('scheduled_actions')} (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      item_id text NOT NULL REFERENCES ${t('items')} (id) ON DELETE CASCADE,
      action text NOT NULL CHECK (action IN ('publish', 'unpublish')),
      due_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      failed_at timestamptz,
      failure text,
      UNIQUE (item_id, action)
    );
    CREATE INDEX scheduled_actions_due_idx ON ${t('scheduled_actions')} (due_at)
      WHERE failed_at IS NULL;
  `.execute(db);
}
