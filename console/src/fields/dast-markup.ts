/**
 * A structured-text paragraph's inline content as light markup, so that marks and links
 * are edited in a plain textarea without an editor library: `**strong**`, `_emphasis_`,
 * `` `code` ``, `~~strikethrough~~`, `[text](https://…)`, and `\` before a character
 * that would otherwise be markup. Spans and links with only these marks turn into markup
 * and back unchanged; anything else (other marks, inline records) is not offered for
 * editing this way (`isMarkupEditable`), so nothing is lost.
 */
export type Span = { type: 'span'; value: string; marks?: string[] };
export type LinkNode = { type: 'link'; url: string; children: Span[] };
export type Inline = Span | LinkNode;

const DELIMITERS: [string, string][] = [
  ['**', 'strong'],
  ['~~', 'strikethrough'],
  ['_', 'emphasis'],
];
const KNOWN_MARKS = new Set(['strong', 'emphasis', 'code', 'strikethrough']);
const SPECIAL = /[\\*_`~[\]]/g;

function isSpan(node: unknown): node is Span {
  const span = node as Span;
  const marks = span?.marks ?? [];
  return (
    span?.type === 'span' &&
    typeof span.value === 'string' &&
    marks.every((mark) => KNOWN_MARKS.has(mark)) &&
    // Code is written verbatim between backticks: it carries no other mark.
    (!marks.includes('code') || marks.length === 1)
  );
}

export function isMarkupEditable(children: unknown[]): boolean {
  return children.every((child) => {
    if (isSpan(child)) return true;
    const link = child as LinkNode;
    return (
      link?.type === 'link' &&
      typeof link.url === 'string' &&
      Object.keys(link).every((key) => ['type', 'url', 'children'].includes(key)) &&
      link.children.every(isSpan)
    );
  });
}

function spanMarkup(span: Span): string {
  const marks = span.marks ?? [];
  if (marks.includes('code')) return `\`${span.value.replaceAll('`', '\\`')}\``;
  let text = span.value.replace(SPECIAL, (char) => `\\${char}`);
  for (const [delimiter, mark] of DELIMITERS) {
    if (marks.includes(mark)) text = `${delimiter}${text}${delimiter}`;
  }
  return text;
}

export function toMarkup(children: Inline[]): string {
  return children
    .map((child) =>
      child.type === 'link'
        ? `[${child.children.map(spanMarkup).join('')}](${child.url.replaceAll(')', '%29')})`
        : spanMarkup(child),
    )
    .join('');
}

/** Spans of `text`, marks toggled by their delimiters (an unclosed one runs to the end). */
function parseSpans(text: string): Span[] {
  const spans: Span[] = [];
  const active = new Set<string>();
  let value = '';
  const flush = () => {
    if (value === '') return;
    const marks = [...active];
    spans.push(marks.length > 0 ? { type: 'span', value, marks } : { type: 'span', value });
    value = '';
  };
  for (let at = 0; at < text.length; ) {
    const char = text[at] as string;
    if (char === '\\' && at + 1 < text.length) {
      value += text[at + 1];
      at += 2;
      continue;
    }
    if (char === '`') {
      const end = findUnescaped(text, '`', at + 1);
      if (end !== -1) {
        flush();
        const code = text.slice(at + 1, end).replaceAll('\\`', '`');
        spans.push({ type: 'span', value: code, marks: ['code'] });
        at = end + 1;
        continue;
      }
    }
    const delimiter = DELIMITERS.find(([mark]) => text.startsWith(mark, at));
    if (delimiter) {
      flush();
      const [mark, name] = delimiter;
      if (active.has(name)) active.delete(name);
      else active.add(name);
      at += mark.length;
      continue;
    }
    value += char;
    at += 1;
  }
  flush();
  return spans;
}

function findUnescaped(text: string, char: string, from: number): number {
  for (let at = from; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === char) return at;
  }
  return -1;
}

const LINK = /\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)/g;

export function fromMarkup(text: string): Inline[] {
  const nodes: Inline[] = [];
  let last = 0;
  for (const found of text.matchAll(LINK)) {
    const start = found.index ?? 0;
    nodes.push(...parseSpans(text.slice(last, start)));
    nodes.push({ type: 'link', url: found[2] as string, children: parseSpans(found[1] ?? '') });
    last = start + found[0].length;
  }
  nodes.push(...parseSpans(text.slice(last)));
  return nodes.length > 0 ? nodes : [{ type: 'span', value: '' }];
}
