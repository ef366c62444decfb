import { useState } from 'preact/hooks';
import { modelFields } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { Loaded, useAsync } from '../ui.tsx';
import { type Block, isBlock, newBlock } from './blocks.ts';
import { FieldInput, type InputProps } from './field-input.tsx';

function allowedBlocks(props: InputProps): string[] {
  const validators = props.field.validators as Record<
    string,
    { item_types?: string[] } | undefined
  >;
  return (
    validators.rich_text_blocks?.item_types ??
    validators.single_block_blocks?.item_types ??
    validators.structured_text_blocks?.item_types ??
    []
  );
}

/** A block's own fields, edited in place (blocks have no locales of their own). */
export function BlockEditor(props: {
  block: Block;
  onChange: (block: Block) => void;
  label: string;
}) {
  const { client } = useSession();
  const modelId = props.block.relationships.item_type.data.id;
  const state = useAsync(async () => {
    const [model, fields] = await Promise.all([
      client.itemTypes.find(modelId),
      modelFields(client, modelId),
    ]);
    return { model, fields };
  }, [client, modelId]);
  return (
    <Loaded state={state}>
      {({ model, fields }) => (
        <fieldset class="blocks">
          <legend>
            {props.label}: {model.name}
          </legend>
          {fields.map((field) => {
            const id = `block-${props.block.id ?? 'new'}-${field.api_key}-${Math.random().toString(36).slice(2, 6)}`;
            return (
              <div class="field" key={field.id}>
                <label for={id}>{field.label}</label>
                <FieldInput
                  id={id}
                  field={field}
                  invalid={false}
                  value={props.block.attributes[field.api_key] ?? null}
                  onChange={(value) =>
                    props.onChange({
                      ...props.block,
                      attributes: { ...props.block.attributes, [field.api_key]: value },
                    })
                  }
                />
              </div>
            );
          })}
        </fieldset>
      )}
    </Loaded>
  );
}

/** Chooses a block model among the allowed ones and adds an empty block of it. */
export function AddBlock(props: {
  id?: string;
  allowed: string[];
  onAdd: (block: Block) => void;
  label?: string;
}) {
  const { client } = useSession();
  const models = useAsync(() => client.itemTypes.list(), [client]);
  const [chosen, setChosen] = useState('');
  const options = (models.data ?? []).filter((model) => props.allowed.includes(model.id));
  const selected = chosen || options[0]?.id || '';
  return (
    <div class="row">
      <select
        aria-label="Block type"
        value={selected}
        onChange={(e) => setChosen(e.currentTarget.value)}
      >
        {options.map((model) => (
          <option key={model.id} value={model.id}>
            {model.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        id={props.id}
        class="ghost"
        disabled={!selected}
        onClick={() => props.onAdd(newBlock(selected))}
      >
        {props.label ?? 'Add block'}
      </button>
    </div>
  );
}

/** Modular content: a list of blocks, added, edited, moved and removed. */
export function BlocksInput(props: InputProps) {
  const list = ((props.value as unknown[] | null) ?? []).filter(isBlock);
  const set = (next: Block[]) => props.onChange(next);
  return (
    <div>
      {list.map((block, index) => (
        <div class="card" key={block.id ?? `new-${index}`}>
          <header>
            <span>Block {index + 1}</span>
            <span class="row">
              <button
                type="button"
                class="ghost"
                disabled={index === 0}
                aria-label={`Move block ${index + 1} up`}
                onClick={() => set(swap(list, index, index - 1))}
              >
                ↑
              </button>
              <button
                type="button"
                class="ghost"
                disabled={index === list.length - 1}
                aria-label={`Move block ${index + 1} down`}
                onClick={() => set(swap(list, index, index + 1))}
              >
                ↓
              </button>
              <button
                type="button"
                class="ghost"
                onClick={() => set(list.filter((_, at) => at !== index))}
              >
                Remove block {index + 1}
              </button>
            </span>
          </header>
          <BlockEditor
            label={`Block ${index + 1}`}
            block={block}
            onChange={(next) => set(list.map((item, at) => (at === index ? next : item)))}
          />
        </div>
      ))}
      <AddBlock allowed={allowedBlocks(props)} onAdd={(block) => set([...list, block])} />
    </div>
  );
}

export function SingleBlockInput(props: InputProps) {
  const block = isBlock(props.value) ? props.value : null;
  return block ? (
    <div class="card">
      <header>
        <span>Block</span>
        <button type="button" class="ghost" onClick={() => props.onChange(null)}>
          Remove block
        </button>
      </header>
      <BlockEditor label="Block" block={block} onChange={props.onChange} />
    </div>
  ) : (
    <AddBlock allowed={allowedBlocks(props)} onAdd={props.onChange} label="Set block" />
  );
}

function swap<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

export { allowedBlocks };
