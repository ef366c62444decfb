import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { MediaBrowser } from '../media-browser.tsx';
import { useSession } from '../session.ts';
import { Dialog, useAsync } from '../ui.tsx';
import type { InputProps } from './field-input.tsx';

type FileValue = {
  upload_id: string;
  alt: string | null;
  title: string | null;
  custom_data: Record<string, string>;
  focal_point: { x: number; y: number } | null;
};

const fileValue = (upload: ApiTypes.Upload): FileValue => ({
  upload_id: upload.id,
  alt: null,
  title: null,
  custom_data: {},
  focal_point: null,
});

/** Opens the media library to choose (or upload and choose) one asset. */
export function AssetPickerButton(props: {
  label: string;
  id?: string;
  onPick: (upload: ApiTypes.Upload) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" id={props.id} class="ghost" onClick={() => setOpen(true)}>
        {props.label}
      </button>
      {open ? (
        <Dialog title="Media library" onClose={() => setOpen(false)}>
          <PickerBrowser
            onPick={(upload) => {
              setOpen(false);
              props.onPick(upload);
            }}
          />
        </Dialog>
      ) : null}
    </>
  );
}

/** The media library in the picker, with the collections read when it opens. */
function PickerBrowser(props: { onPick: (upload: ApiTypes.Upload) => void }) {
  const { client } = useSession();
  const collections = useAsync(() => client.uploadCollections.list(), [client]);
  return <MediaBrowser onPick={props.onPick} collections={collections.data ?? []} />;
}

function AssetRow(props: { value: FileValue; onChange: (value: FileValue | null) => void }) {
  const { value } = props;
  return (
    <div class="card">
      <div class="row spread">
        <span>Asset #{value.upload_id}</span>
        <button type="button" class="ghost" onClick={() => props.onChange(null)}>
          Remove asset #{value.upload_id}
        </button>
      </div>
      <div class="row">
        <input
          aria-label={`Alt text of asset ${value.upload_id}`}
          placeholder="Alt text"
          value={value.alt ?? ''}
          onInput={(e) => props.onChange({ ...value, alt: e.currentTarget.value || null })}
        />
        <input
          aria-label={`Title of asset ${value.upload_id}`}
          placeholder="Title"
          value={value.title ?? ''}
          onInput={(e) => props.onChange({ ...value, title: e.currentTarget.value || null })}
        />
      </div>
    </div>
  );
}

export function AssetInput(props: InputProps) {
  const value = props.value as FileValue | null;
  return (
    <div>
      {value ? <AssetRow value={value} onChange={props.onChange} /> : <p class="muted">No asset</p>}
      <AssetPickerButton
        label={value ? 'Replace asset' : 'Choose asset'}
        onPick={(upload) => props.onChange(fileValue(upload))}
      />
    </div>
  );
}

export function GalleryInput(props: InputProps) {
  const list = (props.value as FileValue[] | null) ?? [];
  return (
    <div>
      {list.length === 0 ? <p class="muted">No assets</p> : null}
      {list.map((entry, index) => (
        <AssetRow
          key={`${entry.upload_id}-${index}`}
          value={entry}
          onChange={(next) =>
            props.onChange(
              next
                ? list.map((item, at) => (at === index ? next : item))
                : list.filter((_, at) => at !== index),
            )
          }
        />
      ))}
      <AssetPickerButton
        label="Add asset"
        onPick={(upload) => props.onChange([...list, fileValue(upload)])}
      />
    </div>
  );
}
