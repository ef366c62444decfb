import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { EDITORS, type FieldType } from '../field-types.ts';
import { Field } from '../ui.tsx';

type Appearance = ApiTypes.Field['appearance'];

/**
 * A field's appearance as the schema form edits it: the editor, chosen among the type's
 * built-in ones, and its parameters as JSON (each editor has its own; the API fills the
 * defaults of those left out and names the one it refuses). Addons are kept as they are.
 */
export function useAppearance(current: Appearance | null, type: FieldType) {
  const [editor, setEditor] = useState(current?.editor ?? '');
  const [parameters, setParameters] = useState(
    current ? JSON.stringify(current.parameters, null, 2) : '{}',
  );
  return {
    editor,
    parameters,
    setParameters,
    /** Another editor starts from no parameters: the last one's rarely apply. */
    chooseEditor: (next: string) => {
      setEditor(next);
      setParameters(next === current?.editor ? JSON.stringify(current.parameters, null, 2) : '{}');
    },
    /** What to send: nothing while a new field keeps its type's default editor. */
    toSend: (): Appearance | undefined => {
      const chosen = editor || (EDITORS[type] ?? [])[0];
      if (!current && !editor && parameters.trim() === '{}') return undefined;
      return {
        editor: chosen ?? '',
        parameters: parseParameters(parameters),
        addons: current?.addons ?? [],
      };
    },
  };
}

function parseParameters(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    throw new Error('Editor parameters must be JSON, e.g. {"placeholder": "Title"}');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('Editor parameters must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export function AppearanceFields(props: {
  type: FieldType;
  state: ReturnType<typeof useAppearance>;
}) {
  const { state } = props;
  const builtIn = EDITORS[props.type] ?? [];
  // A plugin's editor is not a built-in one: it stays offered so saving keeps it.
  const editors =
    state.editor && !builtIn.includes(state.editor) ? [state.editor, ...builtIn] : builtIn;
  return (
    <fieldset>
      <legend>Appearance</legend>
      <Field label="Editor">
        {(id) => (
          <select
            id={id}
            value={state.editor || builtIn[0]}
            onChange={(event) => state.chooseEditor(event.currentTarget.value)}
          >
            {editors.map((editor) => (
              <option key={editor} value={editor}>
                {editor}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Editor parameters" hint='JSON, e.g. {"placeholder": "Title"}'>
        {(id) => (
          <textarea
            id={id}
            rows={4}
            spellcheck={false}
            value={state.parameters}
            onInput={(event) => state.setParameters(event.currentTarget.value)}
          />
        )}
      </Field>
    </fieldset>
  );
}
