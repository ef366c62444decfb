import { DomainError } from '../../errors.ts';
import type { ContentPart } from '../access/permission-entries.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { changedContent } from '../content-changes.ts';
import type { ItemField } from '../model-fields.ts';
import type { StoredItem } from '../record-context.ts';

// What publishing and unpublishing share: their options, the locale check, and the
// changes a role's gate judges.

/**
 * `recursive=true`: publish unpublished parents too, or withdraw published children too.
 * `gate` judges the caller's permission on the record and on the tree records changed
 * along with it, as the transaction finds them under the environment's lock, so a record
 * whose state changed since the request came is judged as it now is. Absent for changes
 * no caller makes (a due schedule).
 */
export type TreeOptions = { recursive?: boolean; gate?: RecordGate };

/** Refuses locales the site does not have: nothing could be published in them. */
export function checkLocalesExist(requested: readonly string[], locales: readonly string[]): void {
  const unknown = requested.filter((locale) => !locales.includes(locale));
  if (unknown.length > 0)
    throw new DomainError(
      'INVALID_ATTRIBUTES',
      `content_in_locales: unknown locale(s) ${unknown.join(', ')} (site locales: ${locales.join(', ')})`,
    );
}

/**
 * Which values of the published version publishing or withdrawing changes, from what was
 * published to `published` (null: nothing), as an update's are judged.
 */
export function publishedChanges(
  fields: readonly ItemField[],
  before: StoredItem,
  published: Record<string, unknown> | null,
): ContentPart[] {
  const placement = { parent_id: before.parent_id, position: before.position };
  return changedContent(
    fields,
    { values: before.published_values ?? {}, ...placement },
    { values: published ?? {}, ...placement },
  );
}
