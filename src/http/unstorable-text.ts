/**
 * Text no database column can hold: PostgreSQL refuses U+0000 in `text` and `jsonb`,
 * and a lone UTF-16 surrogate (which `JSON.parse` makes from a `\udc00` escape) is
 * either refused by `jsonb` or silently turned into U+FFFD on the way to `text`.
 * In `u` mode `\p{Cs}` matches only unpaired surrogates: a pair is one code point.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

export type UnstorableText = { path: string; problem: string };

function problemOf(text: string): string | null {
  const match = UNSTORABLE.exec(text);
  if (!match) return null;
  return match[0] === '\u0000'
    ? 'contains a NUL character (U+0000)'
    : 'contains a lone UTF-16 surrogate (not valid Unicode)';
}

/** Keys are shown JSON-escaped, so the path itself stays printable. */
function printableKey(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}

/**
 * The first string (key or value) in a parsed document that cannot be stored, with its
 * path: `data.attributes.hint`, `data.attributes.validators.enum.values[0]` in `dotted`
 * style (bodies), `filter[ids]` in `bracketed` style (query strings, as clients write them).
 */
export function findUnstorableText(
  value: unknown,
  style: 'dotted' | 'bracketed',
  path = '',
): UnstorableText | null {
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { path, problem } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const name = printableKey(key);
    const childPath = Array.isArray(value)
      ? `${path}[${key}]`
      : path === ''
        ? name
        : style === 'dotted'
          ? `${path}.${name}`
          : `${path}[${name}]`;
    const keyProblem = Array.isArray(value) ? null : problemOf(key);
    if (keyProblem) return { path: childPath, problem: `has a key that ${keyProblem}` };
    const found = findUnstorableText(item, style, childPath);
    if (found) return found;
  }
  return null;
}
