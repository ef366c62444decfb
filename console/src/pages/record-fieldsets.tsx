import type { ApiTypes } from '@datocms/cma-client-browser';
import type { ComponentChildren } from 'preact';
import type { ModelField } from '../schema-data.ts';

type Fieldset = ApiTypes.Fieldset;

export type EditorPart =
  | { kind: 'field'; field: ModelField }
  | { kind: 'fieldset'; fieldset: Fieldset; fields: ModelField[] };

/**
 * The record editor's layout: fields outside any fieldset and fieldsets share one order
 * of positions (the CMA's); a fieldset's fields follow their own positions inside it. A
 * field naming a fieldset the list lacks is shown at the top level rather than hidden.
 */
export function layoutFields(fields: readonly ModelField[], fieldsets: readonly Fieldset[]) {
  const known = new Set(fieldsets.map((fieldset) => fieldset.id));
  const inside = (fieldset: Fieldset) =>
    fields
      .filter((field) => field.fieldset?.id === fieldset.id)
      .sort((a, b) => a.position - b.position);
  const parts: (EditorPart & { position: number })[] = [
    ...fields
      .filter((field) => !field.fieldset || !known.has(field.fieldset.id))
      .map((field) => ({ kind: 'field' as const, field, position: field.position })),
    ...fieldsets.map((fieldset) => ({
      kind: 'fieldset' as const,
      fieldset,
      fields: inside(fieldset),
      position: fieldset.position,
    })),
  ];
  return parts.sort((a, b) => a.position - b.position);
}

/**
 * A fieldset's box: a collapsible one opens and closes (closed at first if it says so,
 * and opened when one of its fields has an error to show).
 */
export function FieldsetBox(props: {
  fieldset: Fieldset;
  hasErrors: boolean;
  children: ComponentChildren;
}) {
  const { fieldset } = props;
  const hint = fieldset.hint ? <p class="muted">{fieldset.hint}</p> : null;
  if (fieldset.collapsible) {
    return (
      <details class="card" open={props.hasErrors || !fieldset.start_collapsed}>
        <summary>{fieldset.title}</summary>
        {hint}
        {props.children}
      </details>
    );
  }
  return (
    <fieldset class="card">
      <legend>{fieldset.title}</legend>
      {hint}
      {props.children}
    </fieldset>
  );
}
