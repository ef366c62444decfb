import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { navigate } from '../router.ts';
import { forgetFields, type Model, type ModelField, modelFields } from '../schema-data.ts';
import { useSession } from '../session.ts';
import { Dialog, ErrorNote, Link, Loaded, useAction, useAsync } from '../ui.tsx';
import { FieldForm } from './schema-field-form.tsx';
import { FieldsetsCard } from './schema-fieldsets.tsx';
import { ModelForm } from './schema-model-form.tsx';

/** Models and blocks, and the one in the URL with its settings and fields. */
export function SchemaPage(props: { modelId: string | null }) {
  const { client, environment } = useSession();
  const models = useAsync(() => client.itemTypes.list(), [client]);
  const [creating, setCreating] = useState<null | 'model' | 'block'>(null);
  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Models and blocks">
        <Loaded state={models}>
          {(list) => (
            <>
              {(['model', 'block'] as const).map((kind) => (
                <section key={kind}>
                  <h2>{kind === 'model' ? 'Models' : 'Blocks'}</h2>
                  <ul>
                    {list
                      .filter((model) => model.modular_block === (kind === 'block'))
                      .map((model) => (
                        <li key={model.id}>
                          <Link
                            to={`editor/${environment}/schema/${model.id}`}
                            aria-current={model.id === props.modelId ? 'page' : undefined}
                          >
                            {model.name}
                          </Link>
                        </li>
                      ))}
                  </ul>
                  <button type="button" class="ghost" onClick={() => setCreating(kind)}>
                    New {kind}
                  </button>
                </section>
              ))}
            </>
          )}
        </Loaded>
      </nav>
      <section>
        {props.modelId ? (
          <ModelDetails
            key={props.modelId}
            modelId={props.modelId}
            models={models.data ?? []}
            onChanged={models.reload}
          />
        ) : (
          <>
            <h1>Schema</h1>
            <p>Choose a model or a block, or create one.</p>
          </>
        )}
      </section>
      {creating ? (
        <Dialog title={`New ${creating}`} onClose={() => setCreating(null)}>
          <ModelForm
            model={null}
            block={creating === 'block'}
            onSaved={(saved) => {
              setCreating(null);
              models.reload();
              navigate(`editor/${environment}/schema/${saved.id}`);
            }}
          />
        </Dialog>
      ) : null}
    </div>
  );
}

function ModelDetails(props: { modelId: string; models: Model[]; onChanged: () => void }) {
  const { client, environment } = useSession();
  const [editing, setEditing] = useState<ModelField | 'new' | null>(null);
  const state = useAsync(async () => {
    forgetFields(client, props.modelId);
    const [model, fields, fieldsets] = await Promise.all([
      client.itemTypes.find(props.modelId),
      modelFields(client, props.modelId),
      client.fieldsets.list(props.modelId),
    ]);
    fieldsets.sort((a, b) => a.position - b.position);
    return { model, fields, fieldsets };
  }, [client, props.modelId]);
  const action = useAction();
  const move = (fields: ModelField[], index: number, by: number) =>
    action.run(async () => {
      const field = fields[index];
      const other = fields[index + by];
      if (!field || !other) return;
      await client.fields.update(field.id, { position: other.position });
      state.reload();
    });
  return (
    <Loaded state={state}>
      {({ model, fields, fieldsets }) => (
        <>
          <div class="row spread">
            <h1>{model.name}</h1>
            {model.modular_block ? null : (
              <Link to={`editor/${environment}/item_types/${model.id}/items`}>Records</Link>
            )}
          </div>
          <details class="card">
            <summary>Settings</summary>
            <ModelForm
              model={model}
              block={model.modular_block}
              onSaved={() => {
                state.reload();
                props.onChanged();
              }}
            />
            <DestroyModel model={model} onDestroyed={props.onChanged} />
          </details>
          <FieldsetsCard modelId={model.id} fieldsets={fieldsets} onChanged={state.reload} />
          <div class="row spread">
            <h2>Fields</h2>
            <button type="button" onClick={() => setEditing('new')}>
              Add field
            </button>
          </div>
          <ErrorNote error={action.error} />
          {fields.length === 0 ? <p class="muted">No fields yet.</p> : null}
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">API key</th>
                  <th scope="col">Type</th>
                  {fieldsets.length > 0 ? <th scope="col">Fieldset</th> : null}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {fields.map((field, index) => (
                  <tr key={field.id}>
                    <td>{field.label}</td>
                    <td>
                      <code>{field.api_key}</code>
                    </td>
                    <td>
                      {field.field_type}
                      {field.localized ? ' · localized' : ''}
                      {'required' in field.validators ? ' · required' : ''}
                    </td>
                    {fieldsets.length > 0 ? (
                      <td>{fieldsets.find((set) => set.id === field.fieldset?.id)?.title ?? ''}</td>
                    ) : null}
                    <td class="row">
                      <button type="button" class="ghost" onClick={() => setEditing(field)}>
                        Edit<span class="sr-only"> {field.label}</span>
                      </button>
                      <button
                        type="button"
                        class="ghost"
                        disabled={index === 0 || action.busy}
                        onClick={() => move(fields, index, -1)}
                        aria-label={`Move ${field.label} up`}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        class="ghost"
                        disabled={index === fields.length - 1 || action.busy}
                        onClick={() => move(fields, index, 1)}
                        aria-label={`Move ${field.label} down`}
                      >
                        ↓
                      </button>
                      <button
                        type="button"
                        class="ghost"
                        disabled={action.busy}
                        aria-label={`Delete ${field.label}`}
                        onClick={() => {
                          if (!confirm(`Delete the field ${field.label} and its values?`)) return;
                          action.run(async () => {
                            await client.fields.destroy(field.id);
                            state.reload();
                          });
                        }}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {editing ? (
            <Dialog
              title={editing === 'new' ? 'Add field' : `Edit ${editing.label}`}
              onClose={() => setEditing(null)}
            >
              <FieldForm
                model={model}
                field={editing === 'new' ? null : editing}
                models={props.models}
                fieldsets={fieldsets}
                onSaved={() => {
                  setEditing(null);
                  state.reload();
                }}
              />
            </Dialog>
          ) : null}
        </>
      )}
    </Loaded>
  );
}

function DestroyModel(props: { model: ApiTypes.ItemType; onDestroyed: () => void }) {
  const { client, environment } = useSession();
  const action = useAction();
  return (
    <div class="row">
      <button
        type="button"
        class="danger"
        disabled={action.busy}
        onClick={async () => {
          if (!confirm(`Delete ${props.model.name} and all its records?`)) return;
          const ok = await action.run(() => client.itemTypes.destroy(props.model.id));
          if (ok) {
            props.onDestroyed();
            navigate(`editor/${environment}/schema`);
          }
        }}
      >
        Delete {props.model.modular_block ? 'block' : 'model'}
      </button>
      <ErrorNote error={action.error} />
    </div>
  );
}
