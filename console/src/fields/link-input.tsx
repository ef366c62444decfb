import { useState } from 'preact/hooks';
import { displayValue, modelFields, titleField } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { Dialog, Loaded, useAsync } from '../ui.tsx';
import type { InputProps } from './field-input.tsx';

function targetModels(props: InputProps): string[] {
  const validators = props.field.validators as Record<
    string,
    { item_types?: string[] } | undefined
  >;
  return validators.item_item_type?.item_types ?? validators.items_item_type?.item_types ?? [];
}

/** Records of the allowed models, searchable; choosing one calls `onPick`. */
export function RecordPicker(props: {
  models: string[];
  onPick: (id: string) => void;
  onClose: () => void;
}) {
  const { client } = useSession();
  const [query, setQuery] = useState('');
  const [submitted, setSubmitted] = useState('');
  const results = useAsync(async () => {
    if (props.models.length === 0) return [];
    const [records, models] = await Promise.all([
      client.items.list({
        filter: { type: props.models.join(','), ...(submitted ? { query: submitted } : {}) },
        page: { limit: 30 },
        version: 'current',
      }),
      client.itemTypes.list(),
    ]);
    const titles = new Map<string, { key: string; localized: boolean } | null>();
    for (const id of props.models) {
      const model = models.find((entry) => entry.id === id);
      const title = model ? titleField(model, await modelFields(client, id)) : undefined;
      titles.set(id, title ? { key: title.api_key, localized: title.localized } : null);
    }
    return records.map((record) => {
      const title = titles.get(record.item_type.id);
      const shown = title ? displayValue(record[title.key], title.localized) : '';
      return { id: record.id, label: shown || `#${record.id}`, status: record.meta.status };
    });
  }, [client, props.models.join(','), submitted]);
  return (
    <Dialog title="Choose a record" onClose={props.onClose}>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(query);
        }}
      >
        <label for="picker-search">Search records</label>
        <input
          id="picker-search"
          type="search"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
      </form>
      <Loaded state={results}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No records.</p>
          ) : (
            <ul class="stack">
              {list.map((record) => (
                <li key={record.id}>
                  <button type="button" class="ghost" onClick={() => props.onPick(record.id)}>
                    {record.label}
                  </button>{' '}
                  <span class={`badge ${record.status}`}>{record.status}</span>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </Dialog>
  );
}

export function LinkInput(props: InputProps) {
  const [open, setOpen] = useState(false);
  const value = props.value as string | null;
  return (
    <div class="row">
      <span>{value ? `Record #${value}` : <span class="muted">No record</span>}</span>
      <button type="button" class="ghost" onClick={() => setOpen(true)}>
        {value ? 'Change record' : 'Choose record'}
      </button>
      {value ? (
        <button type="button" class="ghost" onClick={() => props.onChange(null)}>
          Remove link
        </button>
      ) : null}
      {open ? (
        <RecordPicker
          models={targetModels(props)}
          onClose={() => setOpen(false)}
          onPick={(id) => {
            setOpen(false);
            props.onChange(id);
          }}
        />
      ) : null}
    </div>
  );
}

export function LinksInput(props: InputProps) {
  const [open, setOpen] = useState(false);
  const list = (props.value as string[] | null) ?? [];
  return (
    <div>
      <ul>
        {list.map((id) => (
          <li key={id} class="row">
            Record #{id}
            <button
              type="button"
              class="ghost"
              onClick={() => props.onChange(list.filter((entry) => entry !== id))}
            >
              Remove #{id}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" class="ghost" onClick={() => setOpen(true)}>
        Add record
      </button>
      {open ? (
        <RecordPicker
          models={targetModels(props)}
          onClose={() => setOpen(false)}
          onPick={(id) => {
            setOpen(false);
            if (!list.includes(id)) props.onChange([...list, id]);
          }}
        />
      ) : null}
    </div>
  );
}
