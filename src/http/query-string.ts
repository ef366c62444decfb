import qs from 'qs';

/**
 * The query string as Rack, under DatoCMS's Rails API, reads it. The official client
 * writes an array of objects as `a[][k]=…` (rest-client-utils' buildNormalizedParams):
 * `filter[fields][OR][][title][eq]=a&filter[fields][OR][][title][eq]=b`. Rack starts a
 * new element of `a` when the element being filled already holds the key path given
 * (`[title][eq]`), and adds to it otherwise, so the example is two filters, while
 * `OR[][title][eq]=a&OR[][views][gt]=3` is one filter holding both conditions. qs would
 * read both as one element, the first with `eq: ['a', 'b']`. Parameters naming an object
 * inside an array are given indexes by Rack's rule (`a[0][k]`, `a[1][k]`) before qs reads
 * the whole; nothing else changes.
 */
export function parseQueryString(query: string): Record<string, unknown> {
  const rewritten = HASH_IN_ARRAY.test(query) ? indexHashesInArrays(query) : query;
  // The official client flattens nested query objects as a[b][c]=v. A deep filter into
  // blocks in blocks (filter[fields][f][any][block][g][any][inner][h][matches][pattern])
  // is 10 levels deep; deeper keys stay one literal key, which the filter refuses.
  return qs.parse(rewritten, { depth: 12, arrayLimit: 100 });
}

// `[][`, encoded or not: a parameter names an object inside an array.
const HASH_IN_ARRAY = /\[\]\[|%5B%5D%5B/i;

/** One array's elements so far, each as the key paths given in it (`title/eq`). */
type Elements = Set<string>[];

function indexHashesInArrays(query: string): string {
  // Per array (its key up to `[]`, with the indexes given to arrays it sits in).
  const arrays = new Map<string, Elements>();
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawKey = equals === -1 ? pair : pair.slice(0, equals);
      const key = decoded(rawKey);
      if (key === null || !key.includes('[][')) return pair;
      const value = equals === -1 ? '' : pair.slice(equals);
      return `${encodeURIComponent(indexed(key, arrays))}${value}`;
    })
    .join('&');
}

/** The key with each `[]` before a `[k]` replaced by the index Rack's rule gives it. */
function indexed(key: string, arrays: Map<string, Elements>): string {
  const at = key.indexOf('[][');
  if (at === -1) return key;
  const array = key.slice(0, at);
  const rest = key.slice(at + 2);
  const elements = arrays.get(array) ?? [];
  arrays.set(array, elements);
  const path = segments(rest);
  const last = elements.at(-1);
  // Rack: a key path holding an array (`[]`) never counts as already given.
  const given =
    last !== undefined &&
    !rest.includes('[]') &&
    [...last].some((seen) => seen === path || seen.startsWith(`${path}/`));
  if (last === undefined || given) elements.push(new Set([path]));
  else last.add(path);
  const index = elements.length - 1;
  return indexed(`${array}[${index}]${rest}`, arrays);
}

/** `[title][eq]` → `title/eq`. */
function segments(rest: string): string {
  return rest
    .split(/[[\]]+/)
    .filter((part) => part !== '')
    .join('/');
}

function decoded(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    // A malformed escape: qs keeps such a key as it is, and so does this.
    return null;
  }
}
