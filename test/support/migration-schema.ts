// Assertions the compatibility corpus (test/compat/scripts/) makes on the schema a
// migration script leaves behind, read back through the official client.
import assert from 'node:assert/strict';
import type { ApiTypes, Client } from '@datocms/cma-client-node';

type Field = ApiTypes.Field;

type Attributes = Record<string, unknown>;

/** Every key of `expected` deep-equals the same key of `actual`. */
export function assertAttributes(actual: object, expected: Attributes, what: string): void {
  const picked = Object.fromEntries(
    Object.keys(expected).map((key) => [key, (actual as Attributes)[key]]),
  );
  assert.deepEqual(picked, expected, `${what} differs from what the migration set`);
}

/** The model with this api_key, failing when there is none. */
export async function findModel(client: Client, apiKey: string) {
  const model = (await client.itemTypes.list()).find((itemType) => itemType.api_key === apiKey);
  assert.ok(model, `model ${apiKey} exists`);
  return model;
}

/**
 * The model's fields are exactly `expected`'s api_keys, each with the attributes given
 * there; returns them by api_key for further checks.
 */
export async function assertFields<K extends string>(
  client: Client,
  modelApiKey: string,
  expected: Record<K, Attributes>,
): Promise<Record<K, Field>> {
  const fields = await client.fields.list(modelApiKey);
  assert.deepEqual(
    fields.map((field) => field.api_key).sort(),
    Object.keys(expected).sort(),
    `fields of ${modelApiKey}`,
  );
  const byApiKey = Object.fromEntries(fields.map((field) => [field.api_key, field]));
  for (const [apiKey, attributes] of Object.entries<Attributes>(expected)) {
    const field = byApiKey[apiKey];
    assert.ok(field);
    assertAttributes(field, attributes, `${modelApiKey}::${apiKey}`);
  }
  return byApiKey as Record<K, Field>;
}

/** A relationship as the client returns it, for comparisons. */
export function ref<T extends string>(type: T, id: string): { type: T; id: string } {
  return { type, id };
}

type FieldCreateBody = Parameters<Client['fields']['create']>[1];

/**
 * A field body exactly as the real API returns it (and generated scripts replay it):
 * legacy `appearance.type`, `extensions: []` beside `predefined_list`. The client's
 * types are stricter than the API on these, so they are passed through as they are.
 */
export function apiShaped(body: Record<string, unknown>): FieldCreateBody {
  return body as unknown as FieldCreateBody;
}
