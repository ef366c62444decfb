import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from '../../db/environment-scope.ts';
import type { EnvironmentDatabase } from '../../db/schema.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { findItemType } from '../item-types/repo.ts';

/**
 * The one place record access is decided: the role's item-type permissions (spec 09 §3,
 * the client's `Role` type), effective = positive − negative, each entry scoped to one
 * environment (by id) and optionally to one model or workflow, to records by creator, to
 * records currently on a workflow stage (`on_stage`), for stage moves to moves towards a
 * stage (`to_stage`) and, for updates, to the content an entry's `localization_scope` (and
 * `locale`) names. Routes call these before the record service (or hand the service a
 * gate it calls inside its transaction); a refusal is 403 INSUFFICIENT_PERMISSIONS and
 * changes nothing.
 */

/** The record actions a route needs (`edit_creator`, `take_over` have no route). */
export type ItemAction =
  | 'read'
  | 'create'
  | 'update'
  | 'delete'
  | 'publish'
  | 'duplicate'
  | 'move_to_stage';

/** Whose records an entry reaches: every record, the caller token's, or its role's tokens'. */
type CreatorReach = 'anyone' | 'self' | 'role';

type Entry = Partial<
  Record<
    | 'action'
    | 'environment'
    | 'item_type'
    | 'workflow'
    | 'on_creator'
    | 'localization_scope'
    | 'locale'
    | 'on_stage'
    | 'to_stage',
    unknown
  >
>;

/** What deciding needs of a model. */
export type ModelRef = { id: string; workflow_id: string | null };

/** What deciding needs of a record: `stage` is its workflow stage now (null: none). */
type RecordRef = {
  id: string;
  item_type_id: string;
  creator_id: string | null;
  stage: string | null;
};

/** What is asked: an action, and for a stage move the stage it goes to (absent: any). */
type Intent = { action: ItemAction; toStage?: string };

/**
 * Which content of a record an entry concerns (`localization_scope`, `locale`): all of it,
 * the values of its non-localized fields, or those of its localized fields (in one
 * locale, or in every one when `locale` is null).
 */
type ContentReach =
  | { scope: 'all' }
  | { scope: 'not_localized' }
  | { scope: 'localized'; locale: string | null };

/**
 * One value a write changes: a field's value (`locale` null) or a localized field's value
 * in one locale. A record's placement (`parent_id`, `position`) counts as a non-localized
 * value.
 */
export type ContentPart = { field: string; locale: string | null };

/**
 * Which records one entry reaches: by creator, only those on `stage` unless null, and
 * which of their content.
 */
type Reach = { creator: CreatorReach; stage: string | null; content: ContentReach };

/** The reaches of the entries that grant (allow) and take away (deny) an action. */
type Grant = { allow: readonly Reach[]; deny: readonly Reach[] };

const ALL_CONTENT: ContentReach = { scope: 'all' };

/** The content an entry concerns; an `all` entry's scope is always `all` (the client's Role type). */
function contentOf(entry: Entry): ContentReach {
  if (entry.action === 'all') return ALL_CONTENT;
  if (entry.localization_scope === 'not_localized') return { scope: 'not_localized' };
  if (entry.localization_scope === 'localized')
    return { scope: 'localized', locale: typeof entry.locale === 'string' ? entry.locale : null };
  return ALL_CONTENT;
}

/**
 * The actions judged per value changed. Elsewhere (create, publish) an entry limited to
 * some content is not evaluated per value: a positive one grants nothing, a negative one
 * takes the whole action away — the safe side on both.
 */
const JUDGED_PER_VALUE: ReadonlySet<ItemAction> = new Set(['update']);

/** Whether an entry concerns only part of a record's content. */
function contentNarrowed(entry: Entry): boolean {
  return contentOf(entry).scope !== 'all';
}

/** Whether a reach takes in this value. */
function covers(content: ContentReach, part: ContentPart): boolean {
  if (content.scope === 'all') return true;
  if (content.scope === 'not_localized') return part.locale === null;
  return part.locale !== null && (content.locale === null || content.locale === part.locale);
}

/** An entry's `on_stage` or `to_stage`, null when it has none. */
function stageOf(entry: Entry, key: 'on_stage' | 'to_stage'): string | null {
  const stage = entry[key] ?? null;
  return typeof stage === 'string' ? stage : null;
}

/** The reach of an entry for this intent, environment and model; null when it does not apply. */
function reachOf(
  entry: Entry,
  intent: Intent,
  environmentId: string,
  model: ModelRef | null,
): Reach | null {
  const { action } = intent;
  if (entry.action !== 'all' && entry.action !== action) return null;
  if (entry.environment !== environmentId) return null;
  if (model !== null) {
    const itemType = entry.item_type ?? null;
    const workflow = entry.workflow ?? null;
    if (itemType !== null && itemType !== model.id) return null;
    if (workflow !== null && workflow !== model.workflow_id) return null;
  }
  // `to_stage` restricts moves towards a stage: it says nothing of other actions.
  const toStage = stageOf(entry, 'to_stage');
  if (toStage !== null) {
    if (action !== 'move_to_stage') return null;
    if (intent.toStage !== undefined && intent.toStage !== toStage) return null;
  }
  const stage = stageOf(entry, 'on_stage');
  const content = JUDGED_PER_VALUE.has(action) ? contentOf(entry) : ALL_CONTENT;
  // `create` has no creator and no stage: the record does not exist yet.
  if (action === 'create') return stage === null ? { creator: 'anyone', stage, content } : null;
  const creator =
    entry.on_creator === 'self' || entry.on_creator === 'role' ? entry.on_creator : 'anyone';
  return { creator, stage, content };
}

/** The grant for one model, or (model null) for some model of the environment. */
function grantOf(
  actor: Actor,
  environmentId: string,
  intent: Intent,
  model: ModelRef | null,
): Grant {
  const reaches = (entries: readonly unknown[], positive: boolean) => {
    const found: Reach[] = [];
    const judged = JUDGED_PER_VALUE.has(intent.action);
    for (const entry of entries as Entry[]) {
      if (positive && !judged && contentNarrowed(entry)) continue;
      // A model-less question (may the role do this at all?) ignores narrower negatives.
      const narrower =
        (entry.item_type ?? entry.workflow ?? null) !== null ||
        stageOf(entry, 'on_stage') !== null ||
        stageOf(entry, 'to_stage') !== null ||
        (judged && contentNarrowed(entry));
      if (!positive && model === null && narrower) continue;
      const reach = reachOf(entry, intent, environmentId, model);
      if (reach !== null) found.push(reach);
    }
    return found;
  };
  return {
    allow: reaches(actor.itemTypePermissions.positive, true),
    deny: reaches(actor.itemTypePermissions.negative, false),
  };
}

/** Whether some reach takes in a record of this creator relation and stage. */
function reaches(
  list: readonly Reach[],
  record: { isSelf: boolean; isRole: boolean; stage: string | null },
): boolean {
  return list.some(
    (reach) =>
      (reach.stage === null || reach.stage === record.stage) &&
      (reach.creator === 'anyone' ||
        (reach.creator === 'self' && record.isSelf) ||
        (reach.creator === 'role' && record.isRole)),
  );
}

/** Reaches every record whole: any creator, any stage, all content. */
const everyRecord = (list: readonly Reach[]) =>
  list.some(
    (reach) => reach.creator === 'anyone' && reach.stage === null && reach.content.scope === 'all',
  );

/** The reaches that take in the whole of a record's content. */
const wholeContent = (list: readonly Reach[]) =>
  list.filter((reach) => reach.content.scope === 'all');

/** The reaches that take in one value. */
const covering = (list: readonly Reach[], part: ContentPart) =>
  list.filter((reach) => covers(reach.content, part));

/** Needs the ids of the role's tokens to decide. */
const needsRoleTokens = ({ allow, deny }: Grant) =>
  [...allow, ...deny].some((reach) => reach.creator === 'role');

function refuse(action: ItemAction, what: string): DomainError {
  return new DomainError(
    'INSUFFICIENT_PERMISSIONS',
    `The token's role has no "${action}" permission on ${what}`,
  );
}

/** The ids of the tokens held by the caller's role: whose records `on_creator: role` reaches. */
async function roleTokenIds(scope: Scope, actor: Actor): Promise<string[]> {
  const rows = await scope.project
    .selectFrom('access_tokens')
    .select('id')
    .where('role_id', '=', actor.roleId)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Does the role do `action` on every record of the environment? Then no record needs
 * looking up (the Admin role's case, kept off the write path's latency): a model-less,
 * creator-less positive entry and no negative entry for the action at all.
 */
function grantsEverything(actor: Actor, environmentId: string, action: ItemAction): boolean {
  const applies = (entry: Entry) =>
    (entry.action === 'all' || entry.action === action) && entry.environment === environmentId;
  const wide = (actor.itemTypePermissions.positive as Entry[]).some(
    (entry) =>
      applies(entry) &&
      !contentNarrowed(entry) &&
      (entry.item_type ?? null) === null &&
      (entry.workflow ?? null) === null &&
      stageOf(entry, 'to_stage') === null &&
      reachOf(entry, { action }, environmentId, null)?.creator === 'anyone' &&
      stageOf(entry, 'on_stage') === null,
  );
  return wide && !(actor.itemTypePermissions.negative as Entry[]).some(applies);
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

/** Refuses unless the role may do `action` on new records of `model` (create, validate). */
function assertMayOnModel(
  actor: Actor,
  scope: Scope,
  action: ItemAction,
  model: ModelRef & { api_key: string },
): void {
  const { allow, deny } = grantOf(actor, scope.environment.id, { action }, model);
  if (!everyRecord(allow) || everyRecord(deny))
    throw refuse(action, `the records of model "${model.api_key}"`);
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
  if (model) assertMayOnModel(actor, scope, 'create', model);
}

async function modelsById(scope: Scope, ids: readonly string[]): Promise<Map<string, ModelRef>> {
  if (ids.length === 0) return new Map();
  const rows = await scope.db
    .selectFrom('item_types')
    .select(['id', 'workflow_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** A record with what deciding on it needs: the role's grant on its model, and how it is reached. */
type Judged = {
  record: RecordRef;
  grant: Grant;
  reached: { isSelf: boolean; isRole: boolean; stage: string | null };
};

/** The grant on each record's model and the record's relation to the caller (records of no model are left out). */
async function judge(
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
      isSelf: record.creator_id !== null && record.creator_id === actor.tokenId,
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
 * value, assertMayChangeContent) and takes none of it away.
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

/** Of presented records, those the role may read (a record's references, say). */
export async function readableOnly(
  actor: Actor,
  scope: Scope,
  records: readonly Resource[],
): Promise<Resource[]> {
  if (grantsEverything(actor, scope.environment.id, 'read')) return [...records];
  const idOf = (record: Resource, relationship: string) => {
    const data = record.relationships?.[relationship]?.data;
    return data && !Array.isArray(data) ? data.id : null;
  };
  const stageOfRecord = (record: Resource) => {
    const stage = record.meta?.stage;
    return typeof stage === 'string' ? stage : null;
  };
  const refused = new Set(
    await refusedOf(
      actor,
      scope,
      { action: 'read' },
      records.map((record) => ({
        id: record.id,
        item_type_id: idOf(record, 'item_type') ?? '',
        creator_id: idOf(record, 'creator'),
        stage: stageOfRecord(record),
      })),
    ),
  );
  return records.filter((record) => !refused.has(record.id));
}

/**
 * Refuses unless the role may do `action` on each record named (bulk operations check
 * every one before changing any), as each is now: its stage decides `on_stage` entries.
 * A stage move names the stage it goes to (`to_stage` entries). Ids of no record are
 * left to the service to report.
 */
export async function assertMayOnItems(
  actor: Actor,
  scope: Scope,
  action: ItemAction,
  ids: readonly string[],
  toStage?: string,
): Promise<void> {
  assertMayAtAll(actor, scope, action);
  if (grantsEverything(actor, scope.environment.id, action)) return;
  const records =
    ids.length === 0
      ? []
      : await scope.db
          .selectFrom('items')
          .select(['id', 'item_type_id', 'creator_id', 'stage'])
          .where('id', 'in', [...new Set(ids)])
          .execute();
  await assertMayOnRecords(
    actor,
    scope,
    toStage === undefined ? { action } : { action, toStage },
    records,
  );
}

/**
 * Decides whether the caller may change these records, inside the write's transaction
 * (`scope` is then the transaction's): what it judges is what the write changes. Given
 * `changes` (the values the write changes in the one record named, computed only when
 * the role's entries are limited to some content), it judges each of them instead.
 */
export type RecordGate = (
  scope: Scope,
  ids: readonly string[],
  changes?: () => readonly ContentPart[],
) => Promise<void>;

/** The gate of `action` (a stage move: towards `toStage`) for this caller. */
export function recordGate(actor: Actor, action: ItemAction, toStage?: string): RecordGate {
  return async (scope, ids, changes) => {
    if (changes === undefined) return assertMayOnItems(actor, scope, action, ids, toStage);
    const [id] = ids;
    if (id !== undefined && judgesContent(actor, scope.environment.id, action))
      await assertMayChangeContent(actor, scope, action, id, changes());
  };
}

/** Whether some entry of the role on `action` is limited to part of a record's content. */
function judgesContent(actor: Actor, environmentId: string, action: ItemAction): boolean {
  if (!JUDGED_PER_VALUE.has(action)) return false;
  const { positive, negative } = actor.itemTypePermissions;
  return ([...positive, ...negative] as Entry[]).some(
    (entry) =>
      (entry.action === 'all' || entry.action === action) &&
      entry.environment === environmentId &&
      contentNarrowed(entry),
  );
}

/** How a refused value is named: `title`, `title (it)`. */
const partName = ({ field, locale }: ContentPart) =>
  locale === null ? field : `${field} (${locale})`;

/**
 * Refuses, naming them, unless the role may change each of these values of the record:
 * some entry reaching the record takes in the value (its content scope), and no negative
 * one reaching it does.
 */
async function assertMayChangeContent(
  actor: Actor,
  scope: Scope,
  action: ItemAction,
  id: string,
  parts: readonly ContentPart[],
): Promise<void> {
  if (parts.length === 0) return;
  const record = await scope.db
    .selectFrom('items')
    .select(['id', 'item_type_id', 'creator_id', 'stage'])
    .where('id', '=', id)
    .executeTakeFirst();
  const [judged] = await judge(actor, scope, { action }, record ? [record] : []);
  if (!judged) return;
  const { grant, reached } = judged;
  const refused = parts.filter(
    (part) =>
      !reaches(covering(grant.allow, part), reached) ||
      reaches(covering(grant.deny, part), reached),
  );
  if (refused.length > 0)
    throw new DomainError(
      'INSUFFICIENT_PERMISSIONS',
      `The token's role has no "${action}" permission on these values of record ${id}: ${refused.map(partName).join(', ')}`,
      { refused: refused.map(({ field, locale }) => ({ field, locale })) },
    );
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

export type ItemsWhere = (
  eb: ExpressionBuilder<EnvironmentDatabase, 'items'>,
) => Expression<SqlBool>;

/**
 * The records a list may show: those the role may read. Null when it reads every record
 * of the environment (the common case: no query cost); else a condition per model.
 */
export async function readableRecords(actor: Actor, scope: Scope): Promise<ItemsWhere | null> {
  const environmentId = scope.environment.id;
  if (grantsEverything(actor, environmentId, 'read')) return null;

  const models = await scope.db.selectFrom('item_types').select(['id', 'workflow_id']).execute();
  const grants = models.map((model) => ({
    model,
    grant: grantOf(actor, environmentId, { action: 'read' }, model),
  }));
  const needsRole = grants.some(({ grant }) => needsRoleTokens(grant));
  const roleTokens = needsRole ? await roleTokenIds(scope, actor) : [];
  return (eb) => {
    // Never null: a record without a creator is no one's, one without a stage on none
    // (a null inside NOT would keep it out).
    const creatorIs = (creator: CreatorReach): Expression<SqlBool> => {
      if (creator === 'anyone') return sql<SqlBool>`true`;
      const known = eb('creator_id', 'is not', null);
      if (creator === 'self') return eb.and([known, eb('creator_id', '=', actor.tokenId)]);
      return roleTokens.length > 0
        ? eb.and([known, eb('creator_id', 'in', roleTokens)])
        : sql<SqlBool>`false`;
    };
    const reachedBy = (list: readonly Reach[]): Expression<SqlBool> => {
      if (everyRecord(list)) return sql<SqlBool>`true`;
      const conditions = list.map(({ creator, stage }) =>
        stage === null
          ? creatorIs(creator)
          : eb.and([eb('stage', 'is not', null), eb('stage', '=', stage), creatorIs(creator)]),
      );
      return conditions.length > 0 ? eb.or(conditions) : sql<SqlBool>`false`;
    };
    const perModel = grants
      .filter(({ grant }) => grant.allow.length > 0 && !everyRecord(grant.deny))
      .map(({ model, grant }) =>
        eb.and([
          eb('item_type_id', '=', model.id),
          reachedBy(grant.allow),
          eb.not(reachedBy(grant.deny)),
        ]),
      );
    return perModel.length > 0 ? eb.or(perModel) : sql<SqlBool>`false`;
  };
}
