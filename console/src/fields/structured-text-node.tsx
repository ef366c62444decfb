import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { fromMarkup, type Inline, isMarkupEditable, toMarkup } from './dast-markup.ts';

type Paragraph = { type: 'paragraph'; children: Inline[] };
type Heading = { type: 'heading'; level: number; children: Inline[] };
type ListItem = { type: 'listItem'; children: Paragraph[] };
type List = { type: 'list'; style: 'bulleted' | 'numbered'; children: ListItem[] };
export type TextNode = Paragraph | Heading | List;

/** The kinds a text node can take: `p`, `h1`…`h6`, `ul`, `ol`. */
const KINDS: [string, string][] = [
  ['p', 'Paragraph'],
  ...[1, 2, 3, 4, 5, 6].map((level): [string, string] => [`h${level}`, `Heading ${level}`]),
  ['ul', 'Bulleted list'],
  ['ol', 'Numbered list'],
];

/** Paragraphs, headings and lists of one-paragraph items whose inline content is markup. */
export function isEditableText(node: { type: string; [key: string]: unknown }): boolean {
  const children = node.children as unknown[] | undefined;
  if (!Array.isArray(children)) return false;
  if (node.type === 'paragraph' || node.type === 'heading') return isMarkupEditable(children);
  if (node.type !== 'list') return false;
  return children.every((item) => {
    const paragraphs = (item as ListItem).children;
    return (
      (item as ListItem).type === 'listItem' &&
      paragraphs.length === 1 &&
      paragraphs[0]?.type === 'paragraph' &&
      isMarkupEditable(paragraphs[0].children)
    );
  });
}

function kindOf(node: TextNode): string {
  if (node.type === 'heading') return `h${node.level}`;
  if (node.type === 'list') return node.style === 'numbered' ? 'ol' : 'ul';
  return 'p';
}

/** A list is written one item a line. */
function textOf(node: TextNode): string {
  if (node.type !== 'list') return toMarkup(node.children);
  return node.children.map((item) => toMarkup(item.children[0]?.children ?? [])).join('\n');
}

function build(kind: string, text: string): TextNode {
  if (kind === 'ul' || kind === 'ol') {
    return {
      type: 'list',
      style: kind === 'ol' ? 'numbered' : 'bulleted',
      children: text.split('\n').map((line) => ({
        type: 'listItem',
        children: [{ type: 'paragraph', children: fromMarkup(line) }],
      })),
    };
  }
  if (kind.startsWith('h'))
    return { type: 'heading', level: Number(kind.slice(1)), children: fromMarkup(text) };
  return { type: 'paragraph', children: fromMarkup(text) };
}

/**
 * A paragraph, heading or list, edited as text with inline markup. The textarea keeps what
 * was typed (an unclosed `**` stays as typed); the node is rebuilt from it on each input.
 */
export function TextNodeEditor(props: {
  node: TextNode;
  index: number;
  onChange: (node: TextNode) => void;
  actions: ComponentChildren;
  hintId: string;
}) {
  const [text, setText] = useState(() => textOf(props.node));
  const kind = kindOf(props.node);
  const label = `Node ${props.index + 1}`;
  return (
    <div class="card">
      <header>
        <select
          aria-label={`${label} kind`}
          value={kind}
          onChange={(event) => props.onChange(build(event.currentTarget.value, text))}
        >
          {KINDS.map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
        {props.actions}
      </header>
      <textarea
        aria-label={`${label} text`}
        aria-describedby={props.hintId}
        value={text}
        onInput={(event) => {
          const next = event.currentTarget.value;
          setText(next);
          props.onChange(build(kind, next));
        }}
      />
    </div>
  );
}

/** The markup's key, once per structured-text input (the textareas point at it). */
export function MarkupHint(props: { id: string }) {
  return (
    <small class="muted" id={props.id}>
      **strong**, _emphasis_, `code`, ~~strikethrough~~, [link text](https://…); a list takes one
      item a line; \ before a character keeps it as text.
    </small>
  );
}
