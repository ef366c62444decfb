import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { sanitizeHtml, unsafeHtml } from '../../src/domain/schema/field-types/html-safety.ts';

// The scanners of html-constructs.ts find what these regular expressions find (they were
// the validator before: right, but quadratic on long runs). Compared on short texts.
const NAMES = 'script|iframe|object|embed|applet|frame|frameset';
const REFERENCE: [RegExp, string][] = [
  [
    new RegExp(`<(${NAMES})\\b[^>]*>(?:[\\s\\S]*?<\\/\\1\\s*>)?|<\\/(?:${NAMES})\\s*>`, 'gi'),
    'a script or embedding element',
  ],
  [/\s+on[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, 'an inline event handler attribute'],
  [
    /(\s(?:href|src|action|formaction|xlink:href)\s*=\s*)(["']?)\s*javascript:[^"'\s>]*\2/gi,
    'a javascript: URL',
  ],
];

function referenceUnsafe(html: string): string | null {
  for (const [pattern, what] of REFERENCE) {
    pattern.lastIndex = 0;
    const match = pattern.exec(html);
    if (match) return `contains ${what} (${JSON.stringify(match[0].trim().slice(0, 40))})`;
  }
  return null;
}

function referencePass(html: string): string {
  const [element, handler, url] = REFERENCE.map(([pattern]) => pattern) as [RegExp, RegExp, RegExp];
  return html
    .replace(element, '')
    .replace(handler, '')
    .replace(url, (_m, attribute: string, quote: string) => `${attribute}${quote}${quote}`);
}

const PIECES = [
  '<',
  '>',
  '</',
  '/',
  'script',
  'SCRIPT',
  'frame',
  'frameset',
  'iframe',
  'scriptx',
  ' ',
  '  ',
  '\n',
  '\u00a0',
  'on',
  'onclick',
  'ONx',
  '=',
  '"',
  "'",
  'href',
  'HREF',
  'src',
  'xlink:href',
  'formaction',
  'javascript:',
  'JavaScript:',
  'alert(1)',
  'a',
  '-',
  'p',
  's',
  'ſ',
  'K',
];
const html = fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }).map((parts) => parts.join(''));

describe('sanitized_html scanners', () => {
  test('find the first dangerous construct the reference expressions find', () => {
    fc.assert(
      fc.property(html, (text) => assert.equal(unsafeHtml(text), referenceUnsafe(text))),
      { numRuns: 20_000 },
    );
  });

  test('remove what one pass of the reference expressions removes', () => {
    fc.assert(
      fc.property(html, (text) => {
        const once = referencePass(text);
        // A text stable after one reference pass is what sanitizeHtml returns.
        if (referencePass(once) === once) assert.equal(sanitizeHtml(text), once);
      }),
      { numRuns: 20_000 },
    );
  });

  test('sanitizing stops after a bounded number of passes; the validator refuses the rest', () => {
    const nested = `${'<scr'.repeat(20)}<script></script>${'ipt>'.repeat(20)}`;
    const cleaned = sanitizeHtml(nested);
    assert.notEqual(cleaned, nested);
    assert.match(unsafeHtml(cleaned) ?? '', /script or embedding element/);
    assert.equal(sanitizeHtml('<scr<script></script>ipt>x</script>'), 'x');
  });
});
