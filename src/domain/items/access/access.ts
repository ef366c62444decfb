import type { Scope } from '../../../db/environment-scope.ts';
import { anyText } from '../../../db/query/any-text.ts';
import type { Actor } from '../../actor.ts';
import { DomainError } from '../../errors.ts';
import { findItemType } from '../../schema/model-rows.ts';
import type { RecordView } from '../record-view.ts';
import {
  everyRecord,
  type Grant,
  grantOf,
  grantsEverything,
  type Intent,
  type ItemAction,
  type ModelRef,
  needsRoleTokens,
  type RecordRelation,
  reaches,
  wholeContent,
} from './permission-entries.ts';

/**
 * The one place record access is decided, on the records as they are stored: the role's
 * entries (permission-entries.ts) applied to each record's model, creator and stage.
 * Routes call these before the record service, or hand the service a gate
 * (record-gate.ts) it calls inside its transaction; a refusal is 403
 * INSUFFICIENT_PERMISSIONS and changes nothing.
 */

/** What deciding needs of a record: `stage` is its workflow stage now (null: none). */
type RecordRef = {
  id: string;
  item_type_id: string;
  creator_id: string | null;
  stage: string | null;
};

/** The columns of `items` a RecordRef is read from. */
export const RECORD_REF_COLUMNS = ['id', 'item_type_id', 'creator_id', 'stage'] as const;

function refuse(action: ItemAction, what: string): DomainError {
  return new DomainError(
    'INSUFFICIENT_PERMISSIONS',
    `The token's role has no "${action}" permission on ${what}`,
  );
}

/** The ids of the tokens held by the caller's role: whose records `on_creator: role` reaches. */
export async function roleTokenIds(scope: Scope, actor: Actor): Promise<string[]> {
  const rows = await scope.project
    .selectFrom('access_tokens')
    .select('id')
    .where('role_id', '=', actor.token.role_id)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Refuses unless the role may do `action` on some records of this environment: checked
 * before any record is looked up, so a role without the action is refused even for an
 * id that does not exist.
 */
export function assertMayAtAll(actor: Actor, scope: Scope, action: ItemAction): void {
  const { allow, deny } = grantOf(actor, scope.environment.id, { action }, null);
  if (allow.length === 0 || everyRecord(deny))
    throw refuse(action, `the records of environment "${scope.environment.id}"`);
}

/**
 * Refuses unless the role may create records of `model` (create, validate). An entry
 * limited to some content grants it: which values the new record may be given is judged
 * per value (record-gate.ts).
 */
function assertMayCreateOf(actor: Actor, scope: Scope, model: ModelRef & { api_key: string }) {
  const { allow, deny } = grantOf(actor, scope.environment.id, { action: 'create' }, model);
  if (allow.length === 0 || everyRecord(deny))
    throw refuse('create', `the records of model "${model.api_key}"`);
}

/**
 * Refuses unless the role may create records of the model named by id or api_key. An
 * unknown model is left to the record service to report.
 */
export async function assertMayCreate(
  actor: Actor,
  scope: Scope,
  itemType: string | undefined,
): Promise<void> {
  assertMayAtAll(actor, scope, 'create');
  if (grantsEverything(actor, scope.environment.id, 'create')) return;
  const model = itemType === undefined ? undefined : await findItemType(scope.db, itemType);
  if (model) assertMayCreateOf(actor, scope, model);
}

async function modelsById(scope: Scope, ids: readonly string[]): Promise<Map<string, ModelRef>> {
  if (ids.length === 0) return new Map();
  const rows = await scope.db
    .selectFrom('item_types')
    .select(['id', 'workflow_id'])
    .where(anyText('id', [...new Set(ids)]))
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** A record with what deciding on it needs: the role's grant on its model, and how it is reached. */
type Judged = { record: RecordRef; grant: Grant; reached: RecordRelation };

/** The grant on each record's model and the record's relation to the caller (records of no model are left out). */
export async function judge(
  actor: Actor,
  scope: Scope,
  intent: Intent,
  records: readonly RecordRef[],
): Promise<Judged[]> {
  const models = await modelsById(
    scope,
    records.map((record) => record.item_type_id),
  );
  let roleTokens: Set<string> | undefined;
  const judged: Judged[] = [];
  for (const record of records) {
    const model = models.get(record.item_type_id);
    if (!model) continue;
    const grant = grantOf(actor, scope.environment.id, intent, model);
    if (needsRoleTokens(grant) && roleTokens === undefined)
      roleTokens = new Set(await roleTokenIds(scope, actor));
    const reached = {
      isSelf: record.creator_id !== null && record.creator_id === actor.token.id,
      isRole: record.creator_id !== null && (roleTokens?.has(record.creator_id) ?? false),
      stage: record.stage,
    };
    judged.push({ record, grant, reached });
  }
  return judged;
}

/**
 * The ids of the records the role may not do the intent on. An entry limited to some
 * content grants the action on the record (which values it may change is judged per
 * value, record-gate.ts) and takes none of it away.
 */
async function refusedOf(
  actor: Actor,
  scope: Scope,
  intent: Intent,
  records: readonly RecordRef[],
): Promise<string[]> {
  return (await judge(actor, scope, intent, records))
    .filter(
      ({ grant, reached }) =>
        !reaches(grant.allow, reached) || reaches(wholeContent(grant.deny), reached),
    )
    .map(({ record }) => record.id);
}

/** Refuses, naming them, unless the role may do the intent on every one of `records`. */
async function assertMayOnRecords(
  actor: Actor,
  scope: Scope,
  intent: Intent,
  records: readonly RecordRef[],
): Promise<void> {
  const refused = await refusedOf(actor, scope, intent, records);
  if (refused.length === 0) return;
  const what = intent.toStage === undefined ? '' : ` towards stage "${intent.toStage}"`;
  throw refuse(intent.action, `record(s) ${refused.join(', ')}${what}`);
}

/** Of these records, those the role may read (a record's references, say). */
export async function readableOnly(
  actor: Actor,
  scope: Scope,
  records: readonly RecordView[],
): Promise<RecordView[]> {
  if (grantsEverything(actor, scope.environment.id, 'read')) return [...records];
  const refused = new Set(
    await refusedOf(
      actor,
      scope,
      { action: 'read' },
      records.map(({ row }) => ({
        id: row.id,
        item_type_id: row.item_type_id,
        creator_id: row.creator_id,
        stage: row.stage,
      })),
    ),
  );
  return records.filter((record) => !refused.has(record.row.id));
}

/**
 * Refuses unless the role may do the intent on each record named (bulk operations check
 * every one before changing any), as each is now: its stage decides `on_stage` entries.
 * A stage move names the stage it goes to (`to_stage` entries). Ids of no record are
 * left to the service to report.
 */
export async function assertMayOnItems(
  actor: Actor,
  scope: Scope,
  intent: Intent,
  ids: readonly string[],
): Promise<void> {
  assertMayAtAll(actor, scope, intent.action);
  if (grantsEverything(actor, scope.environment.id, intent.action)) return;
  const records =
    ids.length === 0
      ? []
      : await scope.db
          .selectFrom('items')
          .select(RECORD_REF_COLUMNS)
          .where(anyText('id', [...new Set(ids)]))
          .execute();
  await assertMayOnRecords(actor, scope, intent, records);
}

/** As assertMayOnItems, for the record a version belongs to. */
export async function assertMayOnVersion(
  actor: Actor,
  scope: Scope,
  action: ItemAction,
  versionId: string,
): Promise<void> {
  assertMayAtAll(actor, scope, action);
  if (grantsEverything(actor, scope.environment.id, action)) return;
  const record = await scope.db
    .selectFrom('item_versions')
    .innerJoin('items', 'items.id', 'item_versions.item_id')
    .select(['items.id', 'items.item_type_id', 'items.creator_id', 'items.stage'])
    .where('item_versions.id', '=', versionId)
    .executeTakeFirst();
  await assertMayOnRecords(actor, scope, { action }, record ? [record] : []);
}
