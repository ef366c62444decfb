import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { ErrorNote, TextField, useAction } from '../ui.tsx';
import { Check } from './schema-form-parts.tsx';

type Fieldset = ApiTypes.Fieldset;

/**
 * A model's fieldsets (the groups its fields are shown in): add one, edit its title, hint
 * and whether it collapses, delete it (its fields stay, outside any fieldset). Fields join
 * a fieldset from their own form.
 */
export function FieldsetsCard(props: {
  modelId: string;
  fieldsets: readonly Fieldset[];
  onChanged: () => void;
}) {
  const { client } = useSession();
  const [title, setTitle] = useState('');
  const action = useAction();
  return (
    <details class="card" open={props.fieldsets.length > 0}>
      <summary>Fieldsets</summary>
      {props.fieldsets.length === 0 ? <p class="muted">No fieldsets.</p> : null}
      <ul class="stack">
        {props.fieldsets.map((fieldset) => (
          <FieldsetRow
            key={`${fieldset.id}:${fieldset.title}:${fieldset.hint}:${fieldset.collapsible}:${fieldset.start_collapsed}`}
            fieldset={fieldset}
            onChanged={props.onChanged}
          />
        ))}
      </ul>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          action.run(async () => {
            await client.fieldsets.create(props.modelId, { title });
            setTitle('');
            props.onChanged();
          });
        }}
      >
        <TextField label="New fieldset" required value={title} onInput={setTitle} />
        <button type="submit" disabled={action.busy}>
          Add fieldset
        </button>
      </form>
      <ErrorNote error={action.error} />
    </details>
  );
}

function FieldsetRow(props: { fieldset: Fieldset; onChanged: () => void }) {
  const { client } = useSession();
  const { fieldset } = props;
  const [title, setTitle] = useState(fieldset.title);
  const [hint, setHint] = useState(fieldset.hint ?? '');
  const [collapsible, setCollapsible] = useState(fieldset.collapsible);
  const [startCollapsed, setStartCollapsed] = useState(fieldset.start_collapsed);
  const action = useAction(props.onChanged);
  const run = action.run;
  return (
    <li>
      <form
        class="row"
        aria-label={`Fieldset ${fieldset.title}`}
        onSubmit={(event) => {
          event.preventDefault();
          run(() =>
            client.fieldsets.update(fieldset.id, {
              title,
              hint: hint || null,
              collapsible,
              // Only a collapsible fieldset can start collapsed.
              start_collapsed: collapsible && startCollapsed,
            }),
          );
        }}
      >
        <TextField label={`Title of ${fieldset.title}`} required value={title} onInput={setTitle} />
        <TextField label={`Hint of ${fieldset.title}`} value={hint} onInput={setHint} />
        <Check label="Collapsible" checked={collapsible} onChange={setCollapsible} />
        {collapsible ? (
          <Check label="Starts collapsed" checked={startCollapsed} onChange={setStartCollapsed} />
        ) : null}
        <button type="submit" class="ghost" disabled={action.busy}>
          Save<span class="sr-only"> {fieldset.title}</span>
        </button>
        <button
          type="button"
          class="danger"
          disabled={action.busy}
          onClick={() => {
            if (confirm(`Delete the fieldset ${fieldset.title}? Its fields stay.`)) {
              run(() => client.fieldsets.destroy(fieldset.id));
            }
          }}
        >
          Delete<span class="sr-only"> {fieldset.title}</span>
        </button>
      </form>
      <ErrorNote error={action.error} />
    </li>
  );
}
