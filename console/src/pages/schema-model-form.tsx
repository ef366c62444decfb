import { useState } from 'preact/hooks';
import type { Model } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { Check, NamingFields, SchemaForm, useNaming } from './schema-form-parts.tsx';

/** Creates a model or block, or edits one's name, API key, hint and behaviour. */
export function ModelForm(props: {
  model: Model | null;
  block: boolean;
  onSaved: (model: Model) => void;
}) {
  const { client } = useSession();
  const naming = useNaming(
    props.model && {
      name: props.model.name,
      apiKey: props.model.api_key,
      hint: props.model.hint ?? '',
    },
  );
  const [draftMode, setDraftMode] = useState(props.model?.draft_mode_active ?? true);
  const [sortable, setSortable] = useState(props.model?.sortable ?? false);
  const [singleton, setSingleton] = useState(props.model?.singleton ?? false);
  const [allLocales, setAllLocales] = useState(props.model?.all_locales_required ?? false);
  const save = async () => {
    const { name, apiKey, hint } = naming.naming;
    const common = { name, api_key: apiKey, hint: hint || null };
    const behaviour = props.block
      ? {}
      : { draft_mode_active: draftMode, sortable, singleton, all_locales_required: allLocales };
    const saved = props.model
      ? await client.itemTypes.update(props.model.id, { ...common, ...behaviour })
      : await client.itemTypes.create({ ...common, ...behaviour, modular_block: props.block });
    props.onSaved(saved);
  };
  return (
    <SchemaForm
      save={save}
      submitLabel={props.model ? 'Save' : `Create ${props.block ? 'block' : 'model'}`}
    >
      <NamingFields nameLabel="Name" state={naming} />
      {props.block ? null : (
        <fieldset>
          <legend>Behaviour</legend>
          <Check label="Drafts before publishing" checked={draftMode} onChange={setDraftMode} />
          <Check label="Records sorted by hand" checked={sortable} onChange={setSortable} />
          <Check label="Single record (singleton)" checked={singleton} onChange={setSingleton} />
          <Check label="Every locale required" checked={allLocales} onChange={setAllLocales} />
        </fieldset>
      )}
    </SchemaForm>
  );
}
