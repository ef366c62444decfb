import { isBlock } from './blocks.ts';
import { AddBlock, allowedBlocks, BlockEditor } from './blocks-input.tsx';
import type { InputProps } from './field-input.tsx';

type Span = { type: 'span'; value: string; marks?: string[] };
type TextNode = { type: 'paragraph' | 'heading'; level?: number; children: Span[] | unknown[] };
type BlockNode = { type: 'block'; item: unknown };
type Node = TextNode | BlockNode | { type: string; [key: string]: unknown };
type Dast = { schema: 'dast'; document: { type: 'root'; children: Node[] } };

const plainText = (node: TextNode) =>
  (node.children as Span[]).map((child) => (child.type === 'span' ? child.value : '')).join('');

/**
 * Structured text, editable at the level of its top nodes: paragraphs and headings as
 * plain text (editing one replaces its spans by one unmarked span), blocks with their
 * own fields, and other nodes (lists, code, quotes) kept as they are and shown read-only.
 */
export function StructuredTextInput(props: InputProps) {
  const value = props.value as Dast | null;
  const nodes = value?.document.children ?? [];
  const set = (children: Node[]) =>
    props.onChange(
      children.length === 0 ? null : { schema: 'dast', document: { type: 'root', children } },
    );
  const replace = (index: number, node: Node) =>
    set(nodes.map((item, at) => (at === index ? node : item)));
  const remove = (index: number) => set(nodes.filter((_, at) => at !== index));
  return (
    <div class="stack">
      {nodes.map((node, index) => {
        const key = `${index}-${node.type}`;
        const removeButton = (
          <button type="button" class="ghost" onClick={() => remove(index)}>
            Remove node {index + 1}
          </button>
        );
        if (node.type === 'paragraph' || node.type === 'heading') {
          const text = node as TextNode;
          const kind = text.type === 'heading' ? `h${text.level ?? 1}` : 'p';
          return (
            <div class="card" key={key}>
              <header>
                <select
                  aria-label={`Node ${index + 1} kind`}
                  value={kind}
                  onChange={(e) => {
                    const chosen = e.currentTarget.value;
                    replace(
                      index,
                      chosen === 'p'
                        ? { type: 'paragraph', children: text.children }
                        : {
                            type: 'heading',
                            level: Number(chosen.slice(1)),
                            children: text.children,
                          },
                    );
                  }}
                >
                  <option value="p">Paragraph</option>
                  {[1, 2, 3, 4, 5, 6].map((level) => (
                    <option key={level} value={`h${level}`}>
                      Heading {level}
                    </option>
                  ))}
                </select>
                {removeButton}
              </header>
              <textarea
                aria-label={`Node ${index + 1} text`}
                value={plainText(text)}
                onInput={(e) =>
                  replace(index, {
                    ...text,
                    children: [{ type: 'span', value: e.currentTarget.value }],
                  })
                }
              />
            </div>
          );
        }
        if (node.type === 'block' && isBlock((node as BlockNode).item)) {
          const block = (node as BlockNode).item as Parameters<typeof BlockEditor>[0]['block'];
          return (
            <div class="card" key={key}>
              <header>
                <span>Block node {index + 1}</span>
                {removeButton}
              </header>
              <BlockEditor
                label={`Block node ${index + 1}`}
                block={block}
                onChange={(next) => replace(index, { type: 'block', item: next })}
              />
            </div>
          );
        }
        return (
          <div class="card" key={key}>
            <header>
              <span>{node.type} (kept as is)</span>
              {removeButton}
            </header>
            <pre>{JSON.stringify(node, null, 2)}</pre>
          </div>
        );
      })}
      <div class="row">
        <button
          type="button"
          id={props.id}
          class="ghost"
          onClick={() =>
            set([...nodes, { type: 'paragraph', children: [{ type: 'span', value: '' }] }])
          }
        >
          Add paragraph
        </button>
        <AddBlock
          allowed={allowedBlocks(props)}
          label="Add block node"
          onAdd={(block) => set([...nodes, { type: 'block', item: block }])}
        />
      </div>
    </div>
  );
}
