/**
 * Mustache's escape for custom payloads: the value as the content of a JSON string
 * (no surrounding quotes), so `"{{x}}"` is valid JSON whatever x holds — quotes,
 * backslashes, newlines, control characters and lone surrogates are escaped, while
 * `/`, `&` and other characters stay as they are. Objects and arrays appear as their JSON.
 */
export function jsonStringContent(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text).slice(1, -1);
}
