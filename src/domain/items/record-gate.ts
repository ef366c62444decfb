import type { Scope } from '../../db/environment-scope.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { assertMayOnItems, judge, RECORD_REF_COLUMNS } from './access.ts';
import {
  type ContentPart,
  covering,
  type ItemAction,
  judgesContent,
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

/** The gate of `action` (a stage move: towards `toStage`) for this caller. */
export function recordGate(actor: Actor, action: ItemAction, toStage?: string): RecordGate {
  return async (scope, ids, changes) => {
    if (changes === undefined) return assertMayOnItems(actor, scope, action, ids, toStage);
    const [id] = ids;
    if (id !== undefined && judgesContent(actor, scope.environment.id, action))
      await assertMayChangeContent(actor, scope, action, id, changes());
  };
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
    .select(RECORD_REF_COLUMNS)
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
