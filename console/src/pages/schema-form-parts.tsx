import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { apiKeyFrom } from '../field-types.ts';
import { ErrorNote, Field, TextField, useAction } from '../ui.tsx';

/** What a model form and a field form both edit first: a name, its API key and a hint. */
export type Naming = { name: string; apiKey: string; hint: string };

/**
 * The naming part's state. While adding, the API key follows the name until it is edited
 * by hand; an existing schema item keeps its key.
 */
export function useNaming(initial: Partial<Naming> | null) {
  const [naming, setNaming] = useState<Naming>({
    name: initial?.name ?? '',
    apiKey: initial?.apiKey ?? '',
    hint: initial?.hint ?? '',
  });
  const keyFollowsName = initial === null && naming.apiKey === apiKeyFrom(naming.name);
  const setName = (name: string) =>
    setNaming((current) => ({
      ...current,
      name,
      apiKey: keyFollowsName ? apiKeyFrom(name) : current.apiKey,
    }));
  return { naming, setNaming, setName };
}

/** The name (or label), API key and hint inputs of a schema form. */
export function NamingFields(props: { nameLabel: string; state: ReturnType<typeof useNaming> }) {
  const { naming, setNaming, setName } = props.state;
  return (
    <>
      <Field label={props.nameLabel}>
        {(id) => (
          <input
            id={id}
            required
            value={naming.name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        )}
      </Field>
      <TextField
        label="API key"
        required
        value={naming.apiKey}
        onInput={(apiKey) => setNaming((current) => ({ ...current, apiKey }))}
      />
      <TextField
        label="Hint"
        value={naming.hint}
        onInput={(hint) => setNaming((current) => ({ ...current, hint }))}
      />
    </>
  );
}

/** A schema form: its inputs, the API's error if saving failed, and the submit button. */
export function SchemaForm(props: {
  submitLabel: string;
  save: () => Promise<unknown>;
  children: ComponentChildren;
}) {
  const action = useAction();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        action.run(props.save);
      }}
    >
      {props.children}
      <ErrorNote error={action.error} />
      <button type="submit" disabled={action.busy}>
        {props.submitLabel}
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
