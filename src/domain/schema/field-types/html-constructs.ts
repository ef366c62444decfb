/**
 * The dangerous constructs html-safety.ts looks for, each found by a scanner that reads the
 * text left to right and never goes back more than a bounded distance: time linear in the
 * text. Backtracking regular expressions for the same constructs took quadratic time on
 * runs of spaces or unclosed tags (64,000 spaces held the event loop 7 s). Each scanner
 * finds what this regular expression (flags `gi`, JavaScript's `\s`) would find:
 *
 * - element: `<(script|iframe|…)\b[^>]*>(?:[\s\S]*?<\/\1\s*>)?|<\/(?:script|iframe|…)\s*>`
 * - event handler: `\s+on[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)`
 * - script URL: `(\s(?:href|src|action|formaction|xlink:href)\s*=\s*)(["']?)\s*javascript:[^"'\s>]*\2`
 */

/** One construct found: `[start, end)` of the text; `keep` is what a removal leaves of it. */
export type Found = { start: number; end: number; keep: string };

/**
 * A scanner of one text: the leftmost construct starting at or after `from`, or null.
 * Called with ever larger `from`, as a left-to-right pass does.
 */
export type Finder = (from: number) => Found | null;

const DANGEROUS_ELEMENTS = ['script', 'iframe', 'object', 'embed', 'applet', 'frame', 'frameset'];
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href'];

// Single characters and runs of one class: V8 reads these without backtracking.
const SPACE = /\s/;
const NEXT_SPACE = /\s/g;
const SPACE_RUN = /\s*/y;
const isSpace = (char: string | undefined) => char !== undefined && SPACE.test(char);

/** The first space at or after `at`, or the text's length. */
function nextSpace(text: string, at: number): number {
  NEXT_SPACE.lastIndex = at;
  return NEXT_SPACE.exec(text)?.index ?? text.length;
}
const isWordChar = (char: string | undefined) => char !== undefined && /\w/.test(char);
const isLetter = (char: string | undefined) => char !== undefined && /[a-z]/i.test(char);

function skipSpaces(text: string, at: number): number {
  SPACE_RUN.lastIndex = at;
  return at + (SPACE_RUN.exec(text)?.[0].length ?? 0);
}

/** Whether `word` (lowercase ASCII) is at `at`, in any case: ASCII letters only, as `/i` compares them. */
function startsWithAt(text: string, word: string, at: number): boolean {
  for (let index = 0; index < word.length; index += 1) {
    const code = text.charCodeAt(at + index);
    const lower = code >= 65 && code <= 90 ? code + 32 : code;
    if (lower !== word.charCodeAt(index)) return false;
  }
  return true;
}

/** A closing tag `</name\s*>` at `at`: its lowercased name and end, or null. */
function closingTag(text: string, at: number): { name: string; end: number } | null {
  if (!text.startsWith('</', at)) return null;
  let nameEnd = at + 2;
  while (isLetter(text[nameEnd])) nameEnd += 1;
  const end = skipSpaces(text, nameEnd);
  return text[end] === '>'
    ? { name: text.slice(at + 2, nameEnd).toLowerCase(), end: end + 1 }
    : null;
}

/**
 * Dangerous elements. An opening tag reaches its first `>` and takes in the content up to
 * the first closing tag of the same name, when there is one: the closing tags of each name
 * are collected once, so that many unclosed tags do not each search the rest of the text.
 */
export function elementFinder(text: string): Finder {
  let closings: Map<string, { start: number; end: number }[]> | null = null;
  const nextClosing = new Map<string, number>();
  const closingsOf = () => {
    if (closings) return closings;
    closings = new Map();
    for (let at = text.indexOf('</'); at !== -1; at = text.indexOf('</', at + 2)) {
      const tag = closingTag(text, at);
      if (!tag) continue;
      const list = closings.get(tag.name) ?? [];
      list.push({ start: at, end: tag.end });
      closings.set(tag.name, list);
    }
    return closings;
  };
  /** The end of the first closing tag of `name` starting at or after `from`, or null. */
  const closingAfter = (name: string, from: number): number | null => {
    const list = closingsOf().get(name) ?? [];
    let index = nextClosing.get(name) ?? 0;
    while (index < list.length && (list[index]?.start ?? 0) < from) index += 1;
    nextClosing.set(name, index);
    return list[index]?.end ?? null;
  };
  return (from) => {
    for (let at = text.indexOf('<', from); at !== -1; at = text.indexOf('<', at + 1)) {
      const name = DANGEROUS_ELEMENTS.find(
        (candidate) =>
          startsWithAt(text, candidate, at + 1) && !isWordChar(text[at + 1 + candidate.length]),
      );
      if (name) {
        const tagEnd = text.indexOf('>', at + 1 + name.length);
        // No `>` after this tag: none after any later one either.
        if (tagEnd === -1) return null;
        const end = closingAfter(name, tagEnd + 1) ?? tagEnd + 1;
        return { start: at, end, keep: '' };
      }
      const closing = closingTag(text, at);
      if (closing && DANGEROUS_ELEMENTS.includes(closing.name))
        return { start: at, end: closing.end, keep: '' };
    }
    return null;
  };
}

/** The end of an attribute value starting at `at` (quoted, or up to a space or `>`), or null. */
function attributeValueEnd(text: string, at: number): number | null {
  const quote = text[at];
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, at + 1);
    if (close !== -1) return close + 1;
  }
  let end = at;
  while (end < text.length && !isSpace(text[end]) && text[end] !== '>') end += 1;
  return end > at ? end : null;
}

/**
 * Inline event handlers: spaces, `on<letters>`, `=` and a value. Only the first space of a
 * run can start one (the run is read whole, as `\s+` would), so a run is read once.
 */
export const eventHandlerFinder =
  (text: string): Finder =>
  (from) => {
    for (let at = nextSpace(text, from); at < text.length; ) {
      const runEnd = skipSpaces(text, at);
      if (startsWithAt(text, 'on', runEnd) && isLetter(text[runEnd + 2])) {
        let nameEnd = runEnd + 3;
        while (isLetter(text[nameEnd])) nameEnd += 1;
        const equals = skipSpaces(text, nameEnd);
        if (text[equals] === '=') {
          const end = attributeValueEnd(text, skipSpaces(text, equals + 1));
          if (end !== null) return { start: at, end, keep: '' };
        }
      }
      at = nextSpace(text, runEnd);
    }
    return null;
  };

/**
 * `javascript:` URLs in URL attributes. A match starts at the one space before the
 * attribute's name; a removal keeps the attribute with an empty value.
 */
export const scriptUrlFinder =
  (text: string): Finder =>
  (from) => {
    for (let space = nextSpace(text, from); space < text.length; ) {
      // Only the last space of a run can come before a name.
      const at = skipSpaces(text, space) - 1;
      space = nextSpace(text, at + 1);
      const name = URL_ATTRIBUTES.find((candidate) => startsWithAt(text, candidate, at + 1));
      if (!name) continue;
      const equals = skipSpaces(text, at + 1 + name.length);
      if (text[equals] !== '=') continue;
      const valueStart = skipSpaces(text, equals + 1);
      const quote = text[valueStart] === '"' || text[valueStart] === "'" ? text[valueStart] : '';
      const scheme = skipSpaces(text, valueStart + quote.length);
      if (!startsWithAt(text, 'javascript:', scheme)) continue;
      let end = scheme + 'javascript:'.length;
      while (end < text.length && !/["'\s>]/.test(text[end] ?? '')) end += 1;
      if (quote !== '' && text[end] !== quote) continue;
      const attribute = text.slice(at, valueStart);
      return { start: at, end: end + quote.length, keep: `${attribute}${quote}${quote}` };
    }
    return null;
  };
