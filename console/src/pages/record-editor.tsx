import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { type FieldError, fieldErrors } from '../api.ts';
import { blockForRequest, isBlock } from '../fields/blocks.ts';
import { FieldInput } from '../fields/field-input.tsx';
import { navigate } from '../router.ts';
import { type Model, type ModelField, modelFields } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Link, Loaded, useAction, useAsync } from '../ui.tsx';
import { FieldsetBox, layoutFields } from './record-fieldsets.tsx';
import { RecordSchedule } from './record-schedule.tsx';
import { RecordStage } from './record-stage.tsx';

type Values = Record<string, unknown>;
type EditorData = {
  model: Model;
  fields: ModelField[];
  fieldsets: ApiTypes.Fieldset[];
  locales: string[];
  record: ApiTypes.Item | null;
};

/** Blocks go back without their read-only meta, at any depth. */
function forRequest(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forRequest);
  if (isBlock(value)) {
    const block = blockForRequest(value);
    return { ...block, attributes: forRequest(block.attributes) };
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, forRequest(entry)]),
    );
  }
  return value;
}

function initialValues(
  fields: ModelField[],
  record: ApiTypes.Item | null,
  locales: string[],
): Values {
  const values: Values = {};
  for (const field of fields) {
    const current = record ? (record as Record<string, unknown>)[field.api_key] : undefined;
    if (current !== undefined) values[field.api_key] = current;
    else if (field.localized)
      values[field.api_key] = Object.fromEntries(locales.map((locale) => [locale, null]));
    else values[field.api_key] = null;
  }
  return values;
}

/**
 * A record's editor: an input per field, a tab per locale for localized fields, the API's
 * validation errors beside the field they name, and the record's status, publishing and
 * versions. Typing changes local state only; the network is used on Save.
 */
export function RecordEditor(props: { modelId: string; recordId: string | null }) {
  const { client } = useSession();
  const state = useAsync(async (): Promise<EditorData> => {
    const [model, fields, fieldsets, site, record] = await Promise.all([
      client.itemTypes.find(props.modelId),
      modelFields(client, props.modelId),
      client.fieldsets.list(props.modelId),
      client.site.find(),
      props.recordId
        ? client.items.find(props.recordId, { nested: true, version: 'current' })
        : null,
    ]);
    return { model, fields, fieldsets, locales: site.locales, record };
  }, [client, props.modelId, props.recordId]);
  return (
    <Loaded state={state}>
      {(loaded) => (
        <Editor
          key={loaded.record?.meta.current_version ?? 'new'}
          {...loaded}
          reload={state.reload}
        />
      )}
    </Loaded>
  );
}

function Editor(props: EditorData & { reload: () => void }) {
  const { client, environment } = useSession();
  const { model, fields, fieldsets, locales, record } = props;
  const [values, setValues] = useState<Values>(() => initialValues(fields, record, locales));
  const [locale, setLocale] = useState(locales[0] ?? 'en');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [dirty, setDirty] = useState(false);
  const action = useAction();
  const hasLocalized = fields.some((field) => field.localized);

  const save = () =>
    action.run(async () => {
      setErrors([]);
      const body = forRequest(values) as Values;
      try {
        if (record) {
          await client.items.update(record.id, body);
          setDirty(false);
          props.reload();
        } else {
          const created = await client.items.create({
            ...body,
            item_type: { type: 'item_type', id: model.id },
          });
          navigate(`editor/${environment}/item_types/${model.id}/items/${created.id}/edit`, true);
        }
      } catch (error) {
        setErrors(fieldErrors(error));
        throw error;
      }
    });
  const publishing = (publish: boolean) =>
    action.run(async () => {
      if (!record) return;
      if (publish) await client.items.publish(record.id);
      else await client.items.unpublish(record.id);
      props.reload();
    });

  const errorsOf = (field: ModelField) =>
    errors.filter(
      (error) => error.field === field.api_key || error.field.startsWith(`${field.api_key}.`),
    );
  const hasError = (field: ModelField) => errorsOf(field).length > 0;
  const fieldInput = (field: ModelField) => {
    const id = `field-${field.api_key}`;
    const fieldError = errorsOf(field);
    const message = fieldError
      .map((error) => (error.locale ? `${error.locale}: ${error.message}` : error.message))
      .join('; ');
    const raw = values[field.api_key];
    const value = field.localized ? ((raw as Values | null)?.[locale] ?? null) : raw;
    return (
      <div class={message ? 'field invalid' : 'field'} key={field.id}>
        <label for={id}>
          {field.label}
          {field.localized && locales.length > 1 ? <span class="muted"> ({locale})</span> : null}
          {'required' in field.validators ? <span aria-hidden="true"> *</span> : null}
        </label>
        <FieldInput
          id={id}
          field={field}
          value={value}
          invalid={message !== ''}
          onChange={(next) => {
            setDirty(true);
            setValues((current) => ({
              ...current,
              [field.api_key]: field.localized
                ? { ...((current[field.api_key] as Values | null) ?? {}), [locale]: next }
                : next,
            }));
          }}
        />
        {field.hint ? <small class="muted">{field.hint}</small> : null}
        {message ? (
          <small class="error" role="alert">
            {message}
          </small>
        ) : null}
      </div>
    );
  };

  return (
    <div class="editor-layout">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <div class="row spread">
          <h1>{record ? `${model.name} #${record.id}` : `New ${model.name}`}</h1>
          <Link to={`editor/${environment}/item_types/${model.id}/items`}>
            All {model.name} records
          </Link>
        </div>
        {hasLocalized && locales.length > 1 ? (
          <div class="tabs" role="tablist" aria-label="Locales">
            {locales.map((code) => (
              <button
                key={code}
                type="button"
                role="tab"
                aria-selected={code === locale}
                onClick={() => setLocale(code)}
              >
                {code}
              </button>
            ))}
          </div>
        ) : null}
        {layoutFields(fields, fieldsets).map((part) =>
          part.kind === 'field' ? (
            fieldInput(part.field)
          ) : (
            <FieldsetBox
              key={part.fieldset.id}
              fieldset={part.fieldset}
              hasErrors={part.fields.some((field) => hasError(field))}
            >
              {part.fields.map(fieldInput)}
            </FieldsetBox>
          ),
        )}
        <ErrorNote error={action.error} />
        <div class="row">
          <button type="submit" disabled={action.busy}>
            {record ? 'Save' : 'Create'}
          </button>
          {dirty ? <span class="muted">Unsaved changes</span> : null}
        </div>
      </form>
      {record ? (
        <aside aria-label="Record status">
          <h2>Status</h2>
          <p>
            <span class={`badge ${record.meta.status}`} data-testid="record-status">
              {record.meta.status}
            </span>
          </p>
          <div class="row">
            <button type="button" disabled={action.busy || dirty} onClick={() => publishing(true)}>
              Publish
            </button>
            {record.meta.status !== 'draft' ? (
              <button
                type="button"
                class="ghost"
                disabled={action.busy}
                onClick={() => publishing(false)}
              >
                Unpublish
              </button>
            ) : null}
          </div>
          <RecordStage model={model} record={record} onChanged={props.reload} />
          <RecordSchedule record={record} onChanged={props.reload} />
          <Versions record={record} onRestored={props.reload} />
        </aside>
      ) : null}
    </div>
  );
}

function Versions(props: { record: ApiTypes.Item; onRestored: () => void }) {
  const { client } = useSession();
  const versions = useAsync(
    () => client.itemVersions.list(props.record.id),
    [client, props.record.meta.current_version],
  );
  const action = useAction();
  return (
    <section>
      <h2>Versions</h2>
      <ErrorNote error={action.error} />
      <Loaded state={versions}>
        {(list) => (
          <ol class="stack">
            {list.map((version) => (
              <li key={version.id}>
                {new Date(version.meta.created_at).toLocaleString()}
                {version.id === props.record.meta.current_version ? ' (current)' : ''}
                {version.meta.is_published ? ' · published' : ''}
                {version.id === props.record.meta.current_version ? null : (
                  <button
                    type="button"
                    class="ghost"
                    disabled={action.busy}
                    onClick={() =>
                      action.run(async () => {
                        await client.itemVersions.restore(version.id);
                        props.onRestored();
                      })
                    }
                  >
                    Restore
                    <span class="sr-only">
                      {' '}
                      version of {new Date(version.meta.created_at).toLocaleString()}
                    </span>
                  </button>
                )}
              </li>
            ))}
          </ol>
        )}
      </Loaded>
    </section>
  );
}
