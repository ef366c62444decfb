import type { ItemField } from './model-fields.ts';

export type ItemInput = {
  id?: string;
  /** Model id or api_key (required on create; on update it must name the record's model). */
  itemType?: string;
  attributes: Record<string, unknown>;
  meta: { current_version?: string };
};

/** The record's values by api_key (what the registry checks), from values by field id. */
export function byApiKey(fields: readonly ItemField[], values: Record<string, unknown>) {
  return Object.fromEntries(fields.map((field) => [field.api_key, values[field.id] ?? null]));
}

/** Attributes that are not values of fields: tree and sortable placement. */
const PLACEMENT_KEYS = ['parent_id', 'position'];

export function splitAttributes(fields: readonly ItemField[], attributes: Record<string, unknown>) {
  const apiKeys = new Set(fields.map((field) => field.api_key));
  const values: Record<string, unknown> = {};
  const unknownKeys: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (apiKeys.has(key)) values[key] = value;
    else if (!PLACEMENT_KEYS.includes(key)) unknownKeys.push(key);
  }
  return { values, unknownKeys };
}
