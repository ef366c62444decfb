import type { ApiTypes, Client } from '@datocms/cma-client-browser';

export type Model = ApiTypes.ItemType;
export type ModelField = ApiTypes.Field;

/** The models and each model's fields, read once per page visit and client. */
const fieldsByClient = new WeakMap<Client, Map<string, Promise<ModelField[]>>>();

export function modelFields(client: Client, modelId: string): Promise<ModelField[]> {
  let cache = fieldsByClient.get(client);
  if (!cache) {
    cache = new Map();
    fieldsByClient.set(client, cache);
  }
  let fields = cache.get(modelId);
  if (!fields) {
    fields = client.fields
      .list(modelId)
      .then((list) => [...list].sort((a, b) => a.position - b.position));
    fields.catch(() => cache?.delete(modelId));
    cache.set(modelId, fields);
  }
  return fields;
}

/** After a schema change, fields are read again. */
export function forgetFields(client: Client, modelId?: string): void {
  const cache = fieldsByClient.get(client);
  if (modelId) cache?.delete(modelId);
  else cache?.clear();
}

/** The field a record's row is named by: the model's title field, else its first text. */
export function titleField(model: Model, fields: ModelField[]): ModelField | undefined {
  const chosen = model.title_field?.id;
  return (
    fields.find((field) => field.id === chosen) ??
    fields.find((field) => field.field_type === 'string' || field.field_type === 'slug')
  );
}

/** A value as short text for a list or a picker, whatever the locale layout. */
export function displayValue(value: unknown, localized: boolean): string {
  let shown = value;
  if (localized && value && typeof value === 'object') shown = Object.values(value)[0];
  if (shown === null || shown === undefined || shown === '') return '';
  return typeof shown === 'string' ? shown : JSON.stringify(shown);
}
