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

function childPathOf(
  parent: string,
  key: string,
  inArray: boolean,
  style: 'dotted' | 'bracketed',
): string {
  if (inArray) return `${parent}[${key}]`;
  const name = printableKey(key);
  if (parent === '') return name;
  return style === 'dotted' ? `${parent}.${name}` : `${parent}[${name}]`;
}

/**
 * The first string (key or value) in a parsed document that cannot be stored, with its
 * path: `data.attributes.hint`, `data.attributes.validators.enum.values[0]` in `dotted`
 * style (bodies), `filter[ids]` in `bracketed` style (query strings, as clients write them).
 * Walked with an explicit stack, in document order: a body nested thousands of levels
 * deep must not overflow the call stack.
 */
export function findUnstorableText(
  document: unknown,
  style: 'dotted' | 'bracketed',
): UnstorableText | null {
  type Entry = { value: unknown; path: string; keyProblem: string | null };
  const stack: Entry[] = [{ value: document, path: '', keyProblem: null }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, keyProblem } = next;
    if (keyProblem) return { path, problem: `has a key that ${keyProblem}` };
    if (typeof value === 'string') {
      const problem = problemOf(value);
      if (problem) return { path, problem };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const inArray = Array.isArray(value);
    const children = Object.entries(value).map(
      ([key, item]): Entry => ({
        value: item,
        path: childPathOf(path, key, inArray, style),
        keyProblem: inArray ? null : problemOf(key),
      }),
    );
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Entry);
  }
  return null;
}
