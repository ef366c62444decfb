import type { Issues } from './errors.ts';
import { MAX_FIELD_JSON_LENGTH, MAX_NAME_LENGTH } from './limits.ts';
import { checkRequiredText } from './text-checks.ts';

/**
 * Checks shared by item-type and upload filters. The filter is stored as
 * sent: it follows the records' (or uploads') `filter` query parameter, which is checked
 * when a listing applies it, not when it is saved.
 */
export function checkSavedFilter(
  issues: Issues,
  next: { name: string; filter: Record<string, unknown> },
): void {
  checkRequiredText(issues, 'name', next.name, { maxLength: MAX_NAME_LENGTH });
  checkJsonSize(issues, 'filter', next.filter);
}

export function checkJsonSize(issues: Issues, field: string, value: unknown): void {
  if (JSON.stringify(value ?? null).length > MAX_FIELD_JSON_LENGTH)
    issues.add(
      field,
      'VALIDATION_LENGTH',
      `must be at most ${MAX_FIELD_JSON_LENGTH} characters as JSON`,
    );
}
