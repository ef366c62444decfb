import { isBlock } from './blocks.ts';
import { AddBlock, allowedBlocks, BlockEditor } from './blocks-input.tsx';
import type { InputProps } from './field-input.tsx';
import {
  isEditableText,
  MarkupHint,
  type TextNode,
  TextNodeEditor,
} from './structured-text-node.tsx';

type BlockNode = { type: 'block'; item: unknown };
type Node = TextNode | BlockNode | { type: string; [key: string]: unknown };
type Dast = { schema: 'dast'; document: { type: 'root'; children: Node[] } };

/**
 * Structured text, editable at the level of its top nodes: paragraphs, headings and lists
 * as text with inline markup for marks and links (structured-text-node.tsx), blocks with
 * their own fields, and other nodes (code, quotes, inline records, other marks) kept as
 * they are and shown read-only.
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
  const hintId = `${props.id}-markup`;
  return (
    <div class="stack">
      <MarkupHint id={hintId} />
      {nodes.map((node, index) => {
        const key = `${index}-${node.type}`;
        const removeButton = (
          <button type="button" class="ghost" onClick={() => remove(index)}>
            Remove node {index + 1}
          </button>
        );
        if (isEditableText(node)) {
          return (
            <TextNodeEditor
              key={key}
              node={node as TextNode}
              index={index}
              hintId={hintId}
              onChange={(next) => replace(index, next)}
              actions={removeButton}
            />
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
