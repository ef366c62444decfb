import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { errorMessage } from './api.ts';
import { CollectionSelect } from './collection-select.tsx';
import { type Collection, collectionAndInside } from './collection-tree.ts';
import { useSession } from './session.ts';
import { Loaded, useAsync } from './ui.tsx';

type Upload = ApiTypes.Upload;
type Progress = { key: number; name: string; percent: number; stage: string; error?: string };

const PAGE = 48;
let uploadCount = 0;
const KINDS = [
  ['', 'All'],
  ['image', 'Images'],
  ['video', 'Videos'],
  ['audio', 'Audio'],
  ['pdf_document', 'PDF'],
] as const;
const NO_COLLECTION = 'none';
const COLLECTION_CHOICES = [
  ['', 'All'],
  [NO_COLLECTION, 'In no collection'],
] as const;

/**
 * The media library: drop or choose files to upload (through the client's upload flow,
 * with progress), browse thumbnails, filter by kind, text and collection (a collection
 * shows the uploads in it and in the collections inside it; files uploaded while one is
 * chosen go into it). `onPick` makes each tile
 * choose that upload; `onSelect` makes it open the upload's details.
 */
export function MediaBrowser(props: {
  onPick?: (upload: Upload) => void;
  onSelect?: (upload: Upload) => void;
  selected?: string | null;
  refresh?: number;
  collections: readonly Collection[];
}) {
  const { client } = useSession();
  const [query, setQuery] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [kind, setKind] = useState('');
  const [collection, setCollection] = useState('');
  const [over, setOver] = useState(false);
  const [uploads, setUploads] = useState<Progress[]>([]);
  const [tick, setTick] = useState(0);
  const inCollection = collectionFilter(props.collections, collection);
  const list = useAsync(
    () =>
      client.uploads.list({
        filter: {
          ...(submitted ? { query: submitted } : {}),
          ...(kind ? { type: kind } : {}),
          ...inCollection,
        },
        page: { limit: PAGE },
        order_by: '_created_at_DESC',
      } as Parameters<typeof client.uploads.list>[0]),
    // The collections inside the chosen one may change (one added inside): read again then.
    [client, submitted, kind, JSON.stringify(inCollection), tick, props.refresh],
  );

  const upload = async (files: File[]) => {
    for (const file of files) {
      const key = ++uploadCount;
      setUploads((current) => [...current, { key, name: file.name, percent: 0, stage: 'waiting' }]);
      const update = (changes: Partial<Progress>) =>
        setUploads((current) =>
          current.map((item) => (item.key === key ? { ...item, ...changes } : item)),
        );
      try {
        const created = await client.uploads.createFromFileOrBlob({
          fileOrBlob: file,
          filename: file.name,
          ...(collection && collection !== NO_COLLECTION
            ? { upload_collection: { type: 'upload_collection', id: collection } }
            : {}),
          onProgress: (info) => {
            if (info.type === 'UPLOADING_FILE')
              update({ stage: 'uploading', percent: info.payload.progress });
            else if (info.type === 'REQUESTING_UPLOAD_URL') update({ stage: 'preparing' });
            else update({ stage: 'saving', percent: 100 });
          },
        });
        update({ stage: 'done', percent: 100 });
        setTick((value) => value + 1);
        if (files.length === 1 && props.onPick) props.onPick(created);
      } catch (error) {
        update({ stage: 'failed', error: errorMessage(error) });
      }
    }
  };

  return (
    <div>
      <section
        class={over ? 'dropzone over' : 'dropzone'}
        aria-label="Upload files"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          upload([...(event.dataTransfer?.files ?? [])]);
        }}
      >
        <p>Drop files here, or</p>
        <label class="button ghost">
          Choose files
          <input
            type="file"
            multiple
            class="sr-only"
            data-testid="upload-input"
            onChange={(event) => {
              upload([...(event.currentTarget.files ?? [])]);
              event.currentTarget.value = '';
            }}
          />
        </label>
        {uploads.length > 0 ? (
          <ul class="stack" aria-live="polite">
            {uploads.map((entry) => (
              <li key={entry.key}>
                <span>
                  {entry.name}:{' '}
                  {entry.error ? <span class="error">{entry.error}</span> : entry.stage}
                </span>
                <progress max={100} value={entry.percent} aria-label={`Upload of ${entry.name}`} />
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(query);
        }}
      >
        <label for="media-search">Search assets</label>
        <input
          id="media-search"
          type="search"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
        <label for="media-kind">Kind</label>
        <select id="media-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label for="media-collection">Browse collection</label>
        <CollectionSelect
          id="media-collection"
          collections={props.collections}
          value={collection}
          onChange={setCollection}
          extra={COLLECTION_CHOICES}
        />
      </form>
      <Loaded state={list}>
        {(items) =>
          items.length === 0 ? (
            <p class="muted">No assets.</p>
          ) : (
            <ul class="grid" style="list-style:none;padding:0">
              {items.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    class="thumb"
                    aria-pressed={
                      props.selected === undefined ? undefined : props.selected === item.id
                    }
                    onClick={() => (props.onPick ? props.onPick(item) : props.onSelect?.(item))}
                  >
                    {item.is_image ? (
                      <img src={thumbnail(item)} alt="" loading="lazy" />
                    ) : (
                      <span class="placeholder" aria-hidden="true">
                        {item.format ?? 'file'}
                      </span>
                    )}
                    <span>{item.filename}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </div>
  );
}

/** `filter[fields][upload_collection]` for the chosen collection and those inside it. */
function collectionFilter(collections: readonly Collection[], chosen: string) {
  if (chosen === '') return {};
  const condition =
    chosen === NO_COLLECTION ? { exists: false } : { in: collectionAndInside(collections, chosen) };
  return { fields: { upload_collection: condition } };
}

/** A small rendition where the asset server makes them (imgix-style parameters). */
function thumbnail(upload: Upload): string {
  const separator = upload.url.includes('?') ? '&' : '?';
  return `${upload.url}${separator}w=300&h=220&fit=crop&auto=format`;
}
