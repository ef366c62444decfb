import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { FIELD_TYPES, type FieldType, NO_REQUIRED, TARGET_VALIDATORS } from '../field-types.ts';
import { forgetFields, type Model, type ModelField } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { Field } from '../ui.tsx';
import { AppearanceFields, useAppearance } from './schema-appearance.tsx';
import { Check, NamingFields, SchemaForm, useNaming } from './schema-form-parts.tsx';

type Validators = Record<string, unknown>;

/**
 * Adds a field or edits one: label, API key, type (chosen when adding), localization,
 * hint, and the basic validators: required, length, allowed values, and the models a
 * link or block field may hold; the fieldset it sits in; its editor and the editor's
 * parameters. Validators the form does not show are kept as they are.
 */
export function FieldForm(props: {
  model: Model;
  field: ModelField | null;
  models: Model[];
  fieldsets: readonly ApiTypes.Fieldset[];
  onSaved: () => void;
}) {
  const { client } = useSession();
  const existing = (props.field?.validators ?? {}) as Validators;
  const naming = useNaming(
    props.field && {
      name: props.field.label,
      apiKey: props.field.api_key,
      hint: props.field.hint ?? '',
    },
  );
  const [type, setType] = useState<FieldType>((props.field?.field_type as FieldType) ?? 'string');
  const [localized, setLocalized] = useState(props.field?.localized ?? false);
  const [fieldset, setFieldset] = useState(props.field?.fieldset?.id ?? '');
  const appearance = useAppearance(props.field?.appearance ?? null, type);
  const [required, setRequired] = useState('required' in existing);
  const length = (existing.length ?? {}) as { min?: number; max?: number };
  const [minLength, setMinLength] = useState(length.min === undefined ? '' : String(length.min));
  const [maxLength, setMaxLength] = useState(length.max === undefined ? '' : String(length.max));
  const enumValues = ((existing.enum as { values?: string[] } | undefined)?.values ?? []).join(
    ', ',
  );
  const [options, setOptions] = useState(enumValues);
  const [targets, setTargets] = useState<Record<string, string[]>>(() => {
    const initial: Record<string, string[]> = {};
    for (const { key } of TARGET_VALIDATORS[type] ?? []) {
      initial[key] = (
        (existing[key] as { item_types?: string[] } | undefined)?.item_types ?? []
      ).slice();
    }
    return initial;
  });

  const validators = (): Validators => {
    const next: Validators = { ...existing };
    for (const key of ['required', 'length', 'enum']) delete next[key];
    if (required && !NO_REQUIRED.has(type)) next.required = {};
    if ((type === 'string' || type === 'text') && (minLength !== '' || maxLength !== '')) {
      next.length = {
        ...(minLength !== '' ? { min: Number(minLength) } : {}),
        ...(maxLength !== '' ? { max: Number(maxLength) } : {}),
      };
    }
    const values = options
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean);
    if (type === 'string' && values.length > 0) next.enum = { values };
    for (const { key } of TARGET_VALIDATORS[type] ?? []) {
      const previous = (existing[key] ?? {}) as Record<string, unknown>;
      next[key] = { ...previous, item_types: targets[key] ?? [] };
    }
    if (type === 'link' || type === 'links') {
      const key = type === 'link' ? 'item_item_type' : 'items_item_type';
      next[key] = {
        on_publish_with_unpublished_references_strategy: 'fail',
        on_reference_unpublish_strategy: 'delete_references',
        on_reference_delete_strategy: 'delete_references',
        ...(next[key] as object),
      };
    }
    return next;
  };

  const save = async () => {
    const { name, apiKey, hint } = naming.naming;
    const chosenAppearance = appearance.toSend();
    const body = {
      label: name,
      api_key: apiKey,
      localized,
      hint: hint || null,
      validators: validators(),
      fieldset: fieldset ? { type: 'fieldset' as const, id: fieldset } : null,
      ...(chosenAppearance ? { appearance: chosenAppearance } : {}),
    };
    if (props.field) await client.fields.update(props.field.id, body);
    else
      await client.fields.create(props.model.id, {
        ...body,
        field_type: type,
      } as ApiTypes.FieldCreateSchema);
    forgetFields(client, props.model.id);
    props.onSaved();
  };

  return (
    <SchemaForm save={save} submitLabel={props.field ? 'Save field' : 'Add field'}>
      <NamingFields nameLabel="Label" state={naming} />
      <Field label="Type">
        {(id) => (
          <select
            id={id}
            value={type}
            disabled={props.field !== null}
            onChange={(event) => {
              const next = event.currentTarget.value as FieldType;
              setType(next);
              appearance.chooseEditor('');
              const initial: Record<string, string[]> = {};
              for (const { key } of TARGET_VALIDATORS[next] ?? []) initial[key] = [];
              setTargets(initial);
            }}
          >
            {FIELD_TYPES.map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {props.model.modular_block ? null : (
        <Check label="Localized (a value per locale)" checked={localized} onChange={setLocalized} />
      )}
      {NO_REQUIRED.has(type) ? null : (
        <Check label="Required" checked={required} onChange={setRequired} />
      )}
      {type === 'string' || type === 'text' ? (
        <div class="row">
          <Field label="Minimum length">
            {(id) => (
              <input
                id={id}
                type="number"
                min="0"
                value={minLength}
                onInput={(event) => setMinLength(event.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Maximum length">
            {(id) => (
              <input
                id={id}
                type="number"
                min="1"
                value={maxLength}
                onInput={(event) => setMaxLength(event.currentTarget.value)}
              />
            )}
          </Field>
        </div>
      ) : null}
      {type === 'string' ? (
        <Field label="Allowed values" hint="Comma-separated; empty allows any text">
          {(id) => (
            <input
              id={id}
              value={options}
              onInput={(event) => setOptions(event.currentTarget.value)}
            />
          )}
        </Field>
      ) : null}
      {props.fieldsets.length > 0 ? (
        <Field label="Fieldset">
          {(id) => (
            <select id={id} value={fieldset} onChange={(e) => setFieldset(e.currentTarget.value)}>
              <option value="">None</option>
              {props.fieldsets.map((set) => (
                <option key={set.id} value={set.id}>
                  {set.title}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <AppearanceFields type={type} state={appearance} />
      {(TARGET_VALIDATORS[type] ?? []).map(({ key, blocks }) => (
        <fieldset key={key}>
          <legend>{blocks ? 'Allowed blocks' : 'Allowed models'}</legend>
          {props.models
            .filter((model) => model.modular_block === blocks)
            .map((model) => (
              <Check
                key={model.id}
                label={model.name}
                checked={(targets[key] ?? []).includes(model.id)}
                onChange={(checked) =>
                  setTargets((current) => {
                    const list = (current[key] ?? []).filter((id) => id !== model.id);
                    return { ...current, [key]: checked ? [...list, model.id] : list };
                  })
                }
              />
            ))}
        </fieldset>
      ))}
    </SchemaForm>
  );
}
