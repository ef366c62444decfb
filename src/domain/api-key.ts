import type { Issues } from './errors.ts';
import { MAX_API_KEY_LENGTH } from './limits.ts';

/** The api_key pattern shared by models, fields and workflows: `blog_post`, `title2`. */
export const API_KEY_PATTERN = /^[a-z](([a-z0-9]|_(?![_0-9]))*[a-z0-9])$/;

export function isValidApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** The api_key rules, in the order they are reported: present, bounded, well formed, free. */
export function checkApiKey(
  issues: Issues,
  value: string,
  options: { reserved?: ReadonlySet<string>; taken: boolean },
): void {
  if (value === '') issues.add('api_key', 'VALIDATION_REQUIRED', 'must not be blank');
  else if (value.length > MAX_API_KEY_LENGTH)
    issues.add('api_key', 'VALIDATION_LENGTH', `must be at most ${MAX_API_KEY_LENGTH} characters`);
  else if (!isValidApiKey(value))
    issues.add(
      'api_key',
      'VALIDATION_FORMAT',
      'must be lowercase letters, digits and single underscores, starting with a letter',
    );
  else if (options.reserved?.has(value))
    issues.add('api_key', 'VALIDATION_EXCLUSION', 'is a reserved word');
  else if (options.taken) issues.add('api_key', 'VALIDATION_UNIQUENESS', 'is already taken');
}
