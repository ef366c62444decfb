import type { UploadFilterRow } from '../../db/schema.ts';
import { Issues } from '../errors.ts';
import { checkSavedFilter } from '../saved-filters.ts';

/** Attributes a client may send, already shape-checked by the HTTP layer. */
export type UploadFilterInput = {
  id?: string;
  attributes: Partial<{ name: string; filter: Record<string, unknown>; shared: boolean }>;
};

export type UploadFilterDraft = Omit<UploadFilterRow, 'created_at' | 'seq'>;

export function emptyUploadFilter(id: string): UploadFilterDraft {
  return { id, name: '', filter: {}, shared: false };
}

/** Merges a request into the current state: omitted attributes keep their value. */
export function applyUploadFilterInput(
  base: UploadFilterDraft,
  input: UploadFilterInput,
): UploadFilterDraft {
  const a = input.attributes;
  return {
    id: base.id,
    name: a.name ?? base.name,
    filter: a.filter ?? base.filter,
    shared: a.shared ?? base.shared,
  };
}

export function validateUploadFilter(next: UploadFilterDraft): UploadFilterDraft {
  const issues = new Issues('UploadFilter');
  checkSavedFilter(issues, next);
  issues.throwIfAny();
  return next;
}
