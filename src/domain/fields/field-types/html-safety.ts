/**
 * The `sanitized_html` validator's notion of dangerous HTML: elements that run or embed code,
 * inline event handlers and `javascript:` URLs. DatoCMS documents the validator only as
 * "checks for the presence of malicious code"; this list is our reading of it (PROPOSAL).
 */

const DANGEROUS_ELEMENTS = ['script', 'iframe', 'object', 'embed', 'applet', 'frame', 'frameset'];

const ELEMENT = new RegExp(
  `<(${DANGEROUS_ELEMENTS.join('|')})\\b[^>]*>(?:[\\s\\S]*?<\\/\\1\\s*>)?|<\\/(?:${DANGEROUS_ELEMENTS.join('|')})\\s*>`,
  'gi',
);
const EVENT_HANDLER = /\s+on[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi;
const SCRIPT_URL =
  /(\s(?:href|src|action|formaction|xlink:href)\s*=\s*)(["']?)\s*javascript:[^"'\s>]*\2/gi;

/** The first dangerous construct found in `html`, described, or null when it is safe. */
export function unsafeHtml(html: string): string | null {
  for (const [pattern, what] of [
    [ELEMENT, 'a script or embedding element'],
    [EVENT_HANDLER, 'an inline event handler attribute'],
    [SCRIPT_URL, 'a javascript: URL'],
  ] as const) {
    pattern.lastIndex = 0;
    const match = pattern.exec(html);
    if (match) return `contains ${what} (${JSON.stringify(match[0].trim().slice(0, 40))})`;
  }
  return null;
}

/**
 * `html` with every dangerous construct removed (for `sanitize_before_validation`); repeated
 * until stable, so a removal cannot splice a new dangerous construct together.
 */
export function sanitizeHtml(html: string): string {
  let current = html;
  for (;;) {
    const next = current
      .replace(ELEMENT, '')
      .replace(EVENT_HANDLER, '')
      .replace(
        SCRIPT_URL,
        (_m, attribute: string, quote: string) => `${attribute}${quote}${quote}`,
      );
    if (next === current) return current;
    current = next;
  }
}
