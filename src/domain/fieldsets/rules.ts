import type { FieldsetRow } from '../../db/schema.ts';
import type { Issues } from '../errors.ts';
import { MAX_HINT_LENGTH } from '../limits.ts';
import { checkMaxLength, checkRequiredText } from '../text-checks.ts';
import type { FieldsetAttributes } from './attributes.ts';

export type FieldsetDraft = Omit<FieldsetRow, 'seq' | 'created_at'>;

export function blankFieldset(id: string, itemTypeId: string): FieldsetDraft {
  return {
    id,
    item_type_id: itemTypeId,
    title: '',
    hint: null,
    position: 0,
    collapsible: false,
    start_collapsed: false,
  };
}

/** Omitted attributes keep their value; null clears the hint. Position is placed apart. */
export function applyFieldsetAttributes(base: FieldsetDraft, a: FieldsetAttributes): FieldsetDraft {
  const next = { ...base };
  if (a.title !== undefined) next.title = a.title;
  if (a.hint !== undefined) next.hint = a.hint;
  if (a.collapsible !== undefined) next.collapsible = a.collapsible;
  // Meaningful only when collapsible, but stored as sent.
  if (a.start_collapsed !== undefined) next.start_collapsed = a.start_collapsed;
  return next;
}

/** A non-blank title; the id, when the client chose one, checked apart. */
export function checkFieldset(
  issues: Issues,
  draft: FieldsetDraft,
  isCreate: boolean,
  a: FieldsetAttributes,
): void {
  if (isCreate || a.title !== undefined) checkRequiredText(issues, 'title', draft.title);
  checkMaxLength(issues, 'hint', draft.hint, MAX_HINT_LENGTH);
}
