import { BoundedMemo } from '../../../bounded-memo.ts';
import type { Actor } from '../../actor.ts';

/**
 * How a role's item-type permission entries (the client's `Role` type) answer
 * a question: effective = positive − negative, each entry scoped to one environment (by
 * id) and optionally to one model or workflow, to records by creator, to records
 * currently on a workflow stage (`on_stage`), for stage moves to moves towards a stage
 * (`to_stage`) and, for creates, updates and publishing, to the content an entry's
 * `localization_scope` (and `locale`) names. Reads only the actor: what records are is
 * looked up by access.ts.
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
export type CreatorReach = 'anyone' | 'self' | 'role';

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

/**
 * What is asked: an action, and for a stage move the stage it goes to (absent: any).
 * `wholeContent`: the action is on the record's content as a whole, not on values known
 * now (a schedule publishes whatever the record holds when it is due), so only entries
 * over all content grant it.
 */
export type Intent = { action: ItemAction; toStage?: string; wholeContent?: boolean };

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
export type Reach = { creator: CreatorReach; stage: string | null; content: ContentReach };

/** The reaches of the entries that grant (allow) and take away (deny) an action. */
export type Grant = { allow: readonly Reach[]; deny: readonly Reach[] };

/** How a record stands to the caller: made by its token, by its role's, and its stage now. */
export type RecordRelation = { isSelf: boolean; isRole: boolean; stage: string | null };

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
 * The actions judged per value: the values a create gives, an update changes, publishing
 * or unpublishing changes in the published version. Elsewhere (delete, duplicate, stage
 * moves, schedules) an entry limited to some content is not evaluated per value: a
 * positive one grants nothing, a negative one takes the whole action away — the safe side
 * on both.
 */
const JUDGED_PER_VALUE: ReadonlySet<ItemAction> = new Set(['create', 'update', 'publish']);

/** Whether the intent's entries are judged per value. */
function judgedPerValue(intent: Intent): boolean {
  return JUDGED_PER_VALUE.has(intent.action) && intent.wholeContent !== true;
}

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

/** Whether an entry is about this action in this environment (whatever else it limits). */
function concerns(entry: Entry, environmentId: string, action: ItemAction): boolean {
  return (entry.action === 'all' || entry.action === action) && entry.environment === environmentId;
}

/** The reach of an entry for this intent, environment and model; null when it does not apply. */
function reachOf(
  entry: Entry,
  intent: Intent,
  environmentId: string,
  model: ModelRef | null,
): Reach | null {
  const { action } = intent;
  if (!concerns(entry, environmentId, action)) return null;
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
  const content = judgedPerValue(intent) ? contentOf(entry) : ALL_CONTENT;
  // `create` has no creator and no stage: the record does not exist yet.
  if (action === 'create') return stage === null ? { creator: 'anyone', stage, content } : null;
  const creator =
    entry.on_creator === 'self' || entry.on_creator === 'role' ? entry.on_creator : 'anyone';
  return { creator, stage, content };
}

// What was worked out of an actor's entries, per actor: every record request asks at
// least three times (may the role do this at all, on every record, on this model), and an
// embedded process keeps one actor per token until its role or token changes. Bounded per
// actor: a flood of models empties it.
const answersOfActor = new WeakMap<Actor, BoundedMemo<string, unknown>>();

/** `workOut()`, once per actor and `key` (which must name everything it reads but the actor). */
function onceForActor<T>(actor: Actor, key: string, workOut: () => T): T {
  let answers = answersOfActor.get(actor);
  if (!answers) {
    answers = new BoundedMemo(1_000);
    answersOfActor.set(actor, answers);
  }
  return answers.get(key, workOut) as T;
}

/** The grant for one model, or (model null) for some model of the environment. */
export function grantOf(
  actor: Actor,
  environmentId: string,
  intent: Intent,
  model: ModelRef | null,
): Grant {
  // What reachOf reads of the intent and the model, and nothing else.
  const key = `grant/${environmentId}/${intent.action}/${intent.toStage ?? ''}/${intent.wholeContent === true}/${model?.id ?? ''}/${model?.workflow_id ?? ''}`;
  return onceForActor(actor, key, () => workOutGrant(actor, environmentId, intent, model));
}

function workOutGrant(
  actor: Actor,
  environmentId: string,
  intent: Intent,
  model: ModelRef | null,
): Grant {
  const reachesOf = (entries: readonly unknown[], positive: boolean) => {
    const found: Reach[] = [];
    const judged = judgedPerValue(intent);
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
    allow: reachesOf(actor.itemTypePermissions.positive, true),
    deny: reachesOf(actor.itemTypePermissions.negative, false),
  };
}

/** Whether some reach takes in a record standing so to the caller. */
export function reaches(list: readonly Reach[], record: RecordRelation): boolean {
  return list.some(
    (reach) =>
      (reach.stage === null || reach.stage === record.stage) &&
      (reach.creator === 'anyone' ||
        (reach.creator === 'self' && record.isSelf) ||
        (reach.creator === 'role' && record.isRole)),
  );
}

/** Reaches every record whole: any creator, any stage, all content. */
export const everyRecord = (list: readonly Reach[]) =>
  list.some(
    (reach) => reach.creator === 'anyone' && reach.stage === null && reach.content.scope === 'all',
  );

/** The reaches that take in the whole of a record's content. */
export const wholeContent = (list: readonly Reach[]) =>
  list.filter((reach) => reach.content.scope === 'all');

/** The reaches that take in one value. */
export const covering = (list: readonly Reach[], part: ContentPart) =>
  list.filter((reach) => covers(reach.content, part));

/** Needs the ids of the role's tokens to decide. */
export const needsRoleTokens = ({ allow, deny }: Grant) =>
  [...allow, ...deny].some((reach) => reach.creator === 'role');

/**
 * Does the role do `action` on every record of the environment? Then no record needs
 * looking up (the Admin role's case, kept off the write path's latency): a model-less,
 * creator-less positive entry and no negative entry for the action at all.
 */
export function grantsEverything(actor: Actor, environmentId: string, action: ItemAction): boolean {
  return onceForActor(actor, `everything/${environmentId}/${action}`, () =>
    reachesEveryRecord(actor, environmentId, action),
  );
}

function reachesEveryRecord(actor: Actor, environmentId: string, action: ItemAction): boolean {
  const wide = (actor.itemTypePermissions.positive as Entry[]).some(
    (entry) =>
      concerns(entry, environmentId, action) &&
      !contentNarrowed(entry) &&
      (entry.item_type ?? null) === null &&
      (entry.workflow ?? null) === null &&
      stageOf(entry, 'to_stage') === null &&
      reachOf(entry, { action }, environmentId, null)?.creator === 'anyone' &&
      stageOf(entry, 'on_stage') === null,
  );
  return (
    wide &&
    !(actor.itemTypePermissions.negative as Entry[]).some((entry) =>
      concerns(entry, environmentId, action),
    )
  );
}

/** Whether the intent is judged per value and some entry of the role on it is limited to part of a record's content. */
export function judgesContent(actor: Actor, environmentId: string, intent: Intent): boolean {
  if (!judgedPerValue(intent)) return false;
  const { positive, negative } = actor.itemTypePermissions;
  return ([...positive, ...negative] as Entry[]).some(
    (entry) => concerns(entry, environmentId, intent.action) && contentNarrowed(entry),
  );
}
