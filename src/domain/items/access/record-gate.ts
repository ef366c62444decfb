import type { Scope } from '../../../db/environment-scope.ts';
import type { Actor } from '../../actor.ts';
import { DomainError } from '../../errors.ts';
import { assertMayOnItems, judge, RECORD_REF_COLUMNS } from './access.ts';
import {
  type ContentPart,
  covering,
  type Grant,
  grantOf,
  type Intent,
  judgesContent,
  type ModelRef,
  type RecordRelation,
  reaches,
} from './permission-entries.ts';

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

/** The gate of the intent (an action; a stage move towards a stage) for this caller. */
export function recordGate(actor: Actor, intent: Intent): RecordGate {
  return async (scope, ids, changes) => {
    if (changes === undefined) return assertMayOnItems(actor, scope, intent, ids);
    const [id] = ids;
    if (id !== undefined && judgesContent(actor, scope.environment.id, intent))
      await assertMayChangeContent(actor, scope, intent, id, changes());
  };
}

/**
 * Decides, inside a create's transaction, whether the caller may give a new record of
 * `model` these values (computed only when the role's entries are limited to some
 * content). That the role may create records of the model at all was decided before.
 */
export type NewRecordGate = (
  scope: Scope,
  model: ModelRef,
  given: () => readonly ContentPart[],
) => void;

// A new record has no creator and no stage yet: create entries reach any record
// (permission-entries.ts), so how it stands to the caller decides nothing.
const NEW_RECORD: RecordRelation = { isSelf: true, isRole: true, stage: null };

/** The gate of `create` for this caller. */
export function newRecordGate(actor: Actor): NewRecordGate {
  const intent: Intent = { action: 'create' };
  return (scope, model, given) => {
    if (!judgesContent(actor, scope.environment.id, intent)) return;
    const grant = grantOf(actor, scope.environment.id, intent, model);
    const refused = refusedParts(grant, NEW_RECORD, given());
    if (refused.length > 0) throw refusal(intent, 'a new record', refused);
  };
}

/** How a refused value is named: `title`, `title (it)`. */
const partName = ({ field, locale }: ContentPart) =>
  locale === null ? field : `${field} (${locale})`;

/**
 * The values no entry reaching the record takes in (its content scope), or some negative
 * one reaching it does.
 */
function refusedParts(
  grant: Grant,
  reached: RecordRelation,
  parts: readonly ContentPart[],
): ContentPart[] {
  return parts.filter(
    (part) =>
      !reaches(covering(grant.allow, part), reached) ||
      reaches(covering(grant.deny, part), reached),
  );
}

function refusal(intent: Intent, what: string, refused: readonly ContentPart[]): DomainError {
  return new DomainError(
    'INSUFFICIENT_PERMISSIONS',
    `The token's role has no "${intent.action}" permission on these values of ${what}: ${refused.map(partName).join(', ')}`,
    { refused: refused.map(({ field, locale }) => ({ field, locale })) },
  );
}

/** Refuses, naming them, unless the role may change each of these values of the record. */
async function assertMayChangeContent(
  actor: Actor,
  scope: Scope,
  intent: Intent,
  id: string,
  parts: readonly ContentPart[],
): Promise<void> {
  if (parts.length === 0) return;
  const record = await scope.db
    .selectFrom('items')
    .select(RECORD_REF_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  const [judged] = await judge(actor, scope, intent, record ? [record] : []);
  if (!judged) return;
  const refused = refusedParts(judged.grant, judged.reached, parts);
  if (refused.length > 0) throw refusal(intent, `record ${id}`, refused);
}
