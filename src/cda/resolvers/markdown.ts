import MarkdownIt from 'markdown-it';

// CommonMark, with raw HTML in the text escaped rather than passed through: a text field's
// value is an editor's text, and the HTML this renders goes into pages as markup. Links
// keep markdown-it's own check (no `javascript:`, `vbscript:` or non-image `data:` URLs).
const renderer = new MarkdownIt('commonmark', { html: false });

/** A text field's value as HTML, for `<field>(markdown: true)`. */
export function markdownToHtml(text: string): string {
  return renderer.render(text);
}
