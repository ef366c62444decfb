import {
  elementFinder,
  eventHandlerFinder,
  type Finder,
  type Found,
  scriptUrlFinder,
} from './html-constructs.ts';

/**
 * The `sanitized_html` validator's notion of dangerous HTML: elements that run or embed code,
 * inline event handlers and `javascript:` URLs (html-constructs.ts finds them, in time linear
 * in the text). DatoCMS documents the validator only as "checks for the presence of
 * malicious code"; this list is our reading of it (PROPOSAL).
 */

const CONSTRUCTS: readonly [(text: string) => Finder, string][] = [
  [elementFinder, 'a script or embedding element'],
  [eventHandlerFinder, 'an inline event handler attribute'],
  [scriptUrlFinder, 'a javascript: URL'],
];

/**
 * Passes `sanitizeHtml` makes at most. Each pass removes what the previous one spliced
 * together (`<scr<script></script>ipt>`); a value nested deeper than this is left with a
 * dangerous construct, which the validator then refuses.
 */
export const MAX_SANITIZE_PASSES = 8;

/** The first dangerous construct found in `html`, described, or null when it is safe. */
export function unsafeHtml(html: string): string | null {
  for (const [finder, what] of CONSTRUCTS) {
    const found = finder(html)(0);
    if (found) {
      const text = html.slice(found.start, found.end).trim().slice(0, 40);
      return `contains ${what} (${JSON.stringify(text)})`;
    }
  }
  return null;
}

/** `text` with every construct `finder` finds replaced by what it keeps of it. */
function removeAll(text: string, finder: (text: string) => Finder): string {
  const find = finder(text);
  const parts: string[] = [];
  let at = 0;
  for (let found: Found | null = find(0); found; found = find(at)) {
    parts.push(text.slice(at, found.start), found.keep);
    at = found.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * `html` with every dangerous construct removed (for `sanitize_before_validation`); repeated
 * until stable, so a removal cannot splice a new dangerous construct together, for at most
 * MAX_SANITIZE_PASSES passes.
 */
export function sanitizeHtml(html: string): string {
  let current = html;
  for (let pass = 0; pass < MAX_SANITIZE_PASSES; pass += 1) {
    let next = current;
    for (const [finder] of CONSTRUCTS) next = removeAll(next, finder);
    if (next === current) return current;
    current = next;
  }
  return current;
}
