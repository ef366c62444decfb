import type { Issues } from './errors.ts';
import { MAX_NAME_LENGTH } from './limits.ts';

/**
 * A required text attribute: blank → VALIDATION_REQUIRED, too long → VALIDATION_LENGTH.
 * True when it passed both, so callers can go on to uniqueness.
 */
export function checkRequiredText(
  issues: Issues,
  field: string,
  value: string,
  options: { maxLength?: number; blankMessage?: string } = {},
): boolean {
  const maxLength = options.maxLength ?? MAX_NAME_LENGTH;
  if (value.trim() === '') {
    issues.add(field, 'VALIDATION_REQUIRED', options.blankMessage ?? 'must not be blank');
    return false;
  }
  return checkMaxLength(issues, field, value, maxLength);
}

/** An optional text attribute: only its length is bounded. */
export function checkMaxLength(
  issues: Issues,
  field: string,
  value: string | null | undefined,
  maxLength: number,
): boolean {
  if ((value?.length ?? 0) <= maxLength) return true;
  issues.add(field, 'VALIDATION_LENGTH', `must be at most ${maxLength} characters`);
  return false;
}
