import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { type Async, ErrorNote, Loaded, TextField, useAction } from '../ui.tsx';

export type Collection = ApiTypes.UploadCollection;

/**
 * The upload collections: add one, rename or delete each. Uploads move into a collection
 * from their details.
 */
export function MediaCollections(props: { collections: Async<Collection[]> }) {
  const { client } = useSession();
  const [label, setLabel] = useState('');
  const action = useAction();
  return (
    <details class="card">
      <summary>Collections</summary>
      <Loaded state={props.collections}>
        {(list) => (
          <ul class="stack">
            {list.map((collection) => (
              <CollectionRow
                key={`${collection.id}:${collection.label}`}
                collection={collection}
                onChanged={props.collections.reload}
              />
            ))}
          </ul>
        )}
      </Loaded>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          action.run(async () => {
            await client.uploadCollections.create({ label });
            setLabel('');
            props.collections.reload();
          });
        }}
      >
        <TextField label="New collection" required value={label} onInput={setLabel} />
        <button type="submit" disabled={action.busy}>
          Add collection
        </button>
      </form>
      <ErrorNote error={action.error} />
    </details>
  );
}

function CollectionRow(props: { collection: Collection; onChanged: () => void }) {
  const { client } = useSession();
  const [label, setLabel] = useState(props.collection.label);
  const action = useAction();
  const run = (call: () => Promise<unknown>) =>
    action.run(async () => {
      await call();
      props.onChanged();
    });
  return (
    <li>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          run(() => client.uploadCollections.update(props.collection.id, { label }));
        }}
      >
        <TextField
          label={`Name of ${props.collection.label}`}
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
            if (confirm(`Delete the collection ${props.collection.label}?`)) {
              run(() => client.uploadCollections.destroy(props.collection.id));
            }
          }}
        >
          Delete<span class="sr-only"> {props.collection.label}</span>
        </button>
      </form>
      <ErrorNote error={action.error} />
    </li>
  );
}
