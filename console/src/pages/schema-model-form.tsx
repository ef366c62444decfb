import { useState } from 'preact/hooks';
import { apiKeyFrom } from '../field-types.ts';
import type { Model } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Field, useAction } from '../ui.tsx';

/** Creates a model or block, or edits one's name, API key, hint and behaviour. */
export function ModelForm(props: {
  model: Model | null;
  block: boolean;
  onSaved: (model: Model) => void;
}) {
  const { client } = useSession();
  const [name, setName] = useState(props.model?.name ?? '');
  const [apiKey, setApiKey] = useState(props.model?.api_key ?? '');
  const [hint, setHint] = useState(props.model?.hint ?? '');
  const [draftMode, setDraftMode] = useState(props.model?.draft_mode_active ?? true);
  const [sortable, setSortable] = useState(props.model?.sortable ?? false);
  const [singleton, setSingleton] = useState(props.model?.singleton ?? false);
  const [allLocales, setAllLocales] = useState(props.model?.all_locales_required ?? false);
  const action = useAction();
  const keyTouched = props.model !== null || apiKey !== apiKeyFrom(name);
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        const common = { name, api_key: apiKey, hint: hint || null };
        const behaviour = props.block
          ? {}
          : { draft_mode_active: draftMode, sortable, singleton, all_locales_required: allLocales };
        await action.run(async () => {
          const saved = props.model
            ? await client.itemTypes.update(props.model.id, { ...common, ...behaviour })
            : await client.itemTypes.create({
                ...common,
                ...behaviour,
                modular_block: props.block,
              });
          props.onSaved(saved);
        });
      }}
    >
      <Field label="Name">
        {(id) => (
          <input
            id={id}
            required
            value={name}
            onInput={(event) => {
              const value = event.currentTarget.value;
              if (!keyTouched) setApiKey(apiKeyFrom(value));
              setName(value);
            }}
          />
        )}
      </Field>
      <Field label="API key">
        {(id) => (
          <input
            id={id}
            required
            value={apiKey}
            onInput={(event) => setApiKey(event.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Hint">
        {(id) => (
          <input id={id} value={hint} onInput={(event) => setHint(event.currentTarget.value)} />
        )}
      </Field>
      {props.block ? null : (
        <fieldset>
          <legend>Behaviour</legend>
          <Check label="Drafts before publishing" checked={draftMode} onChange={setDraftMode} />
          <Check label="Records sorted by hand" checked={sortable} onChange={setSortable} />
          <Check label="Single record (singleton)" checked={singleton} onChange={setSingleton} />
          <Check label="Every locale required" checked={allLocales} onChange={setAllLocales} />
        </fieldset>
      )}
      <ErrorNote error={action.error} />
      <button type="submit" disabled={action.busy}>
        {props.model ? 'Save' : `Create ${props.block ? 'block' : 'model'}`}
      </button>
    </form>
  );
}

export function Check(props: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <label class="row">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      {props.label}
    </label>
  );
}
