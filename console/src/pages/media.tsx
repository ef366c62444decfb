import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { CollectionSelect } from '../collection-select.tsx';
import type { Collection } from '../collection-tree.ts';
import { MediaBrowser } from '../media-browser.tsx';
import { useSession } from '../session.ts';
import { ErrorNote, Field, Loaded, TextField, useAction, useAsync } from '../ui.tsx';
import { MediaCollections } from './media-collections.tsx';

/** The media library page: the browser, and the chosen upload's details beside it. */
export function MediaPage() {
  const [selected, setSelected] = useState<ApiTypes.Upload | null>(null);
  const [refresh, setRefresh] = useState(0);
  const { client } = useSession();
  const collections = useAsync(() => client.uploadCollections.list(), [client]);
  return (
    <>
      <h1>Media</h1>
      <MediaCollections collections={collections} />
      <div class="editor-layout">
        <MediaBrowser
          selected={selected?.id ?? null}
          onSelect={setSelected}
          refresh={refresh}
          collections={collections.data ?? []}
        />
        <aside aria-label="Asset details">
          {selected ? (
            <UploadDetails
              key={selected.id}
              upload={selected}
              collections={collections.data ?? []}
              onSaved={(upload) => {
                setSelected(upload);
                setRefresh((value) => value + 1);
              }}
              onDestroyed={() => {
                setSelected(null);
                setRefresh((value) => value + 1);
              }}
            />
          ) : (
            <p class="muted">Choose an asset to see and edit its details.</p>
          )}
        </aside>
      </div>
    </>
  );
}

const NONE = [['', 'None']] as const;

function UploadDetails(props: {
  upload: ApiTypes.Upload;
  collections: Collection[];
  onSaved: (upload: ApiTypes.Upload) => void;
  onDestroyed: () => void;
}) {
  const { client } = useSession();
  const site = useAsync(() => client.site.find(), [client]);
  const locale = site.data?.locales[0] ?? 'en';
  // Alt, title and custom data are kept per locale; the focal point is one per asset.
  const metadata = props.upload.default_field_metadata;
  const [alt, setAlt] = useState(metadata.alt?.[locale] ?? '');
  const [title, setTitle] = useState(metadata.title?.[locale] ?? '');
  const [tags, setTags] = useState(props.upload.tags.join(', '));
  const [collection, setCollection] = useState(props.upload.upload_collection?.id ?? '');
  const [focal, setFocal] = useState(
    metadata.focal_point ? `${metadata.focal_point.x}, ${metadata.focal_point.y}` : '',
  );
  const references = useAsync(
    () => client.uploads.references(props.upload.id),
    [client, props.upload.id],
  );
  const action = useAction();
  const { upload } = props;
  return (
    <section>
      <h2>{upload.filename}</h2>
      <p class="muted">
        {upload.format ?? ''} · {Math.round(upload.size / 1024)} KB
        {upload.width ? ` · ${upload.width}×${upload.height}` : ''}
      </p>
      <p>
        <a href={upload.url} target="_blank" rel="noreferrer">
          Open the file
        </a>
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          action.run(async () => {
            const [x, y] = focal.split(',').map((part) => Number(part.trim()));
            const focalPoint =
              focal.trim() === '' || x === undefined || y === undefined ? null : { x, y };
            const saved = await client.uploads.update(upload.id, {
              tags: tags
                .split(',')
                .map((tag) => tag.trim())
                .filter(Boolean),
              upload_collection: collection ? { type: 'upload_collection', id: collection } : null,
              default_field_metadata: {
                alt: { ...metadata.alt, [locale]: alt || null },
                title: { ...metadata.title, [locale]: title || null },
                custom_data: metadata.custom_data,
                focal_point: focalPoint,
              },
            });
            props.onSaved(saved);
          });
        }}
      >
        <Field label={`Alt text (${locale})`}>
          {(id) => <input id={id} value={alt} onInput={(e) => setAlt(e.currentTarget.value)} />}
        </Field>
        <Field label={`Title (${locale})`}>
          {(id) => <input id={id} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />}
        </Field>
        <TextField
          label="Focal point"
          hint="x, y between 0 and 1, e.g. 0.5, 0.3"
          value={focal}
          onInput={setFocal}
        />
        <TextField label="Tags" hint="Comma-separated" value={tags} onInput={setTags} />
        <Field label="Collection">
          {(id) => (
            <CollectionSelect
              id={id}
              collections={props.collections}
              value={collection}
              onChange={setCollection}
              extra={NONE}
            />
          )}
        </Field>
        <ErrorNote error={action.error} />
        <div class="row">
          <button type="submit" disabled={action.busy}>
            Save asset
          </button>
          <button
            type="button"
            class="danger"
            disabled={action.busy}
            onClick={() => {
              if (!confirm(`Delete ${upload.filename}?`)) return;
              action.run(async () => {
                await client.uploads.destroy(upload.id);
                props.onDestroyed();
              });
            }}
          >
            Delete asset
          </button>
        </div>
      </form>
      <h3>Used in</h3>
      <Loaded state={references}>
        {(records) =>
          records.length === 0 ? (
            <p class="muted">No record uses it.</p>
          ) : (
            <ul>
              {records.map((record) => (
                <li key={record.id}>Record #{record.id}</li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
