import { useState } from 'preact/hooks';
import { AssetPickerButton } from './asset-input.tsx';
import type { InputProps } from './field-input.tsx';

type Color = { red: number; green: number; blue: number; alpha: number };

const hex = (n: number) => n.toString(16).padStart(2, '0');

export function ColorInput(props: InputProps) {
  const color = props.value as Color | null;
  const value = color ? `#${hex(color.red)}${hex(color.green)}${hex(color.blue)}` : '#000000';
  return (
    <div class="row">
      <input
        id={props.id}
        type="color"
        value={value}
        onInput={(event) => {
          const raw = event.currentTarget.value;
          props.onChange({
            red: Number.parseInt(raw.slice(1, 3), 16),
            green: Number.parseInt(raw.slice(3, 5), 16),
            blue: Number.parseInt(raw.slice(5, 7), 16),
            alpha: color?.alpha ?? 255,
          });
        }}
      />
      <span class="muted">{color ? value : 'not set'}</span>
      {color ? (
        <button type="button" class="ghost" onClick={() => props.onChange(null)}>
          Clear
        </button>
      ) : null}
    </div>
  );
}

/** JSON is edited as text; the value changes only while the text parses. */
export function JsonInput(props: InputProps) {
  const initial =
    typeof props.value === 'string'
      ? props.value
      : props.value == null
        ? ''
        : JSON.stringify(props.value, null, 2);
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <textarea
        id={props.id}
        class="mono"
        value={text}
        aria-invalid={problem || props.invalid ? 'true' : undefined}
        onInput={(event) => {
          const raw = event.currentTarget.value;
          setText(raw);
          if (raw.trim() === '') {
            setProblem(null);
            props.onChange(null);
            return;
          }
          try {
            JSON.parse(raw);
            setProblem(null);
            props.onChange(props.field.field_type === 'json' ? raw : JSON.parse(raw));
          } catch (error) {
            setProblem(error instanceof Error ? error.message : 'not JSON');
          }
        }}
      />
      {problem ? <small class="error">Not valid JSON: {problem}</small> : null}
    </>
  );
}

type LatLon = { latitude: number; longitude: number };

export function LatLonInput(props: InputProps) {
  const value = props.value as LatLon | null;
  const [lat, setLat] = useState(value ? String(value.latitude) : '');
  const [lon, setLon] = useState(value ? String(value.longitude) : '');
  const update = (nextLat: string, nextLon: string) => {
    setLat(nextLat);
    setLon(nextLon);
    if (nextLat === '' && nextLon === '') props.onChange(null);
    else props.onChange({ latitude: Number(nextLat), longitude: Number(nextLon) });
  };
  return (
    <div class="row">
      <input
        id={props.id}
        type="number"
        step="any"
        min="-90"
        max="90"
        aria-label="Latitude"
        placeholder="Latitude"
        value={lat}
        onInput={(e) => update(e.currentTarget.value, lon)}
      />
      <input
        type="number"
        step="any"
        min="-180"
        max="180"
        aria-label="Longitude"
        placeholder="Longitude"
        value={lon}
        onInput={(e) => update(lat, e.currentTarget.value)}
      />
    </div>
  );
}

type Seo = {
  title?: string | null;
  description?: string | null;
  image?: string | null;
  twitter_card?: string | null;
  no_index?: boolean;
};

export function SeoInput(props: InputProps) {
  const value = (props.value ?? {}) as Seo;
  const set = (changes: Partial<Seo>) =>
    props.onChange({
      title: null,
      description: null,
      image: null,
      twitter_card: null,
      no_index: false,
      ...value,
      ...changes,
    });
  return (
    <div class="stack">
      <input
        id={props.id}
        aria-label="SEO title"
        placeholder="Title"
        value={value.title ?? ''}
        onInput={(e) => set({ title: e.currentTarget.value || null })}
      />
      <textarea
        aria-label="SEO description"
        placeholder="Description"
        value={value.description ?? ''}
        onInput={(e) => set({ description: e.currentTarget.value || null })}
      />
      <div class="row">
        <span class="muted">Image: {value.image ? `#${value.image}` : 'none'}</span>
        <AssetPickerButton
          label="Choose SEO image"
          onPick={(upload) => set({ image: upload.id })}
        />
        {value.image ? (
          <button type="button" class="ghost" onClick={() => set({ image: null })}>
            Remove image
          </button>
        ) : null}
      </div>
      <label class="row">
        <input
          type="checkbox"
          checked={value.no_index === true}
          onChange={(e) => set({ no_index: e.currentTarget.checked })}
        />
        Hide from search engines (noindex)
      </label>
    </div>
  );
}

type Video = {
  url: string;
  provider: string;
  provider_uid: string;
  title: string;
  width: number;
  height: number;
  thumbnail_url: string;
};

/** An external video by its provider's facts (the console fetches nothing from the provider). */
export function VideoInput(props: InputProps) {
  const value = props.value as Video | null;
  const empty: Video = {
    url: '',
    provider: 'youtube',
    provider_uid: '',
    title: '',
    width: 640,
    height: 360,
    thumbnail_url: '',
  };
  const set = (changes: Partial<Video>) => {
    const next = { ...(value ?? empty), ...changes };
    props.onChange(next.url === '' ? null : next);
  };
  const current = value ?? empty;
  return (
    <div class="stack">
      <input
        id={props.id}
        type="url"
        aria-label="Video URL"
        placeholder="https://…"
        value={current.url}
        onInput={(e) => set({ url: e.currentTarget.value })}
      />
      <div class="row">
        <select
          aria-label="Provider"
          value={current.provider}
          onChange={(e) => set({ provider: e.currentTarget.value })}
        >
          <option value="youtube">YouTube</option>
          <option value="vimeo">Vimeo</option>
          <option value="facebook">Facebook</option>
        </select>
        <input
          aria-label="Provider's video id"
          placeholder="Video id"
          value={current.provider_uid}
          onInput={(e) => set({ provider_uid: e.currentTarget.value })}
        />
        <input
          aria-label="Video title"
          placeholder="Title"
          value={current.title}
          onInput={(e) => set({ title: e.currentTarget.value })}
        />
      </div>
      <input
        type="url"
        aria-label="Thumbnail URL"
        placeholder="Thumbnail URL"
        value={current.thumbnail_url}
        onInput={(e) => set({ thumbnail_url: e.currentTarget.value })}
      />
    </div>
  );
}
