import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { CollectionSelect } from '../collection-select.tsx';
import { type Collection, collectionAndInside, groupByParent } from '../collection-tree.ts';
import { useSession } from '../session.ts';
import { type Async, ErrorNote, Field, Loaded, TextField, useAction } from '../ui.tsx';

const TOP = [['', 'Top level']] as const;

/**
 * The upload collections as the tree they form: add one (at the top or inside another),
 * rename, move under another collection, delete. Uploads move into a collection from
 * their details.
 */
export function MediaCollections(props: { collections: Async<Collection[]> }) {
  const { client } = useSession();
  const [label, setLabel] = useState('');
  const [parent, setParent] = useState('');
  const action = useAction();
  const all = props.collections.data ?? [];
  return (
    <details class="card">
      <summary>Collections</summary>
      <Loaded state={props.collections}>
        {(list) => (
          <CollectionList
            byParent={groupByParent(list)}
            parent={null}
            all={list}
            onChanged={props.collections.reload}
          />
        )}
      </Loaded>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          action.run(async () => {
            await client.uploadCollections.create({
              label,
              parent: parent ? { type: 'upload_collection', id: parent } : null,
            });
            setLabel('');
            props.collections.reload();
          });
        }}
      >
        <TextField label="New collection" required value={label} onInput={setLabel} />
        <Field label="Inside">
          {(id) => (
            <CollectionSelect
              id={id}
              collections={all}
              value={parent}
              onChange={setParent}
              extra={TOP}
            />
          )}
        </Field>
        <button type="submit" disabled={action.busy}>
          Add collection
        </button>
      </form>
      <ErrorNote error={action.error} />
    </details>
  );
}

/** The collections directly inside `parent`, each with its own list of children. */
function CollectionList(props: {
  byParent: Map<string | null, Collection[]>;
  parent: string | null;
  all: Collection[];
  onChanged: () => void;
}) {
  const children = props.byParent.get(props.parent) ?? [];
  if (children.length === 0) return null;
  return (
    <ul class={props.parent === null ? 'stack' : 'stack nested'}>
      {children.map((collection) => (
        <CollectionRow
          key={`${collection.id}:${collection.label}:${collection.parent?.id}`}
          collection={collection}
          all={props.all}
          onChanged={props.onChanged}
        >
          <CollectionList {...props} parent={collection.id} />
        </CollectionRow>
      ))}
    </ul>
  );
}

function CollectionRow(props: {
  collection: Collection;
  all: Collection[];
  onChanged: () => void;
  children: ComponentChildren;
}) {
  const { client } = useSession();
  const { collection } = props;
  const [label, setLabel] = useState(collection.label);
  const [parent, setParent] = useState(collection.parent?.id ?? '');
  const action = useAction(props.onChanged);
  const run = action.run;
  return (
    <li>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          run(() => client.uploadCollections.update(collection.id, { label }));
        }}
      >
        <TextField
          label={`Name of ${collection.label}`}
          required
          value={label}
          onInput={setLabel}
        />
        <button type="submit" class="ghost" disabled={action.busy}>
          Rename
        </button>
        <button
          type="button"
          class="danger"
          disabled={action.busy}
          onClick={() => {
            if (confirm(`Delete the collection ${collection.label}?`)) {
              run(() => client.uploadCollections.destroy(collection.id));
            }
          }}
        >
          Delete<span class="sr-only"> {collection.label}</span>
        </button>
      </form>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          run(() =>
            client.uploadCollections.update(collection.id, {
              parent: parent ? { type: 'upload_collection', id: parent } : null,
            }),
          );
        }}
      >
        <Field label={`Place of ${collection.label}`}>
          {(id) => (
            <CollectionSelect
              id={id}
              collections={props.all}
              value={parent}
              onChange={setParent}
              extra={TOP}
              // A collection cannot go inside itself or inside one of its own.
              exclude={collectionAndInside(props.all, collection.id)}
            />
          )}
        </Field>
        <button type="submit" class="ghost" disabled={action.busy}>
          Move<span class="sr-only"> {collection.label}</span>
        </button>
      </form>
      <ErrorNote error={action.error} />
      {props.children}
    </li>
  );
}
