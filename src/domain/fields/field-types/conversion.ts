import { FIELD_TYPE_CATALOG } from './catalog.ts';
import { defaultAppearance } from './editors.ts';
import { isPlainObject } from './problems.ts';
import type { FieldDefinition, FieldType } from './types.ts';

/** How a default value carries over; null when it does not. */
type ValueConversion = (value: unknown) => unknown;

const same: ValueConversion = (value) => value;
const dropped: ValueConversion = () => null;

/** The allowed `field_type` changes (spec 02 §9) and what happens to the default value. */
const CONVERSIONS: Partial<Record<FieldType, Partial<Record<FieldType, ValueConversion>>>> = {
  string: { text: same, slug: dropped, json: (v) => JSON.stringify(v) },
  text: { string: same, slug: dropped },
  slug: { string: dropped, text: dropped },
  integer: { float: same },
  float: { integer: (v) => (Number.isSafeInteger(v) ? v : null) },
  // No site timezone here: a date becomes midnight UTC.
  date: { date_time: (v) => `${v}T00:00:00+00:00` },
  date_time: { date: (v) => (v as string).slice(0, 10) },
  link: { links: dropped },
  links: { link: dropped },
  file: { gallery: dropped },
  gallery: { file: dropped },
};

/** Validators with the same meaning under another name on the new type. */
const RENAMED_VALIDATORS: Record<string, string> = {
  item_item_type: 'items_item_type',
  items_item_type: 'item_item_type',
};

function convertDefault(definition: FieldDefinition, convert: ValueConversion): unknown {
  const one = (value: unknown) => (value === null || value === undefined ? null : convert(value));
  const value = definition.default_value;
  if (!definition.localized) return one(value);
  if (!isPlainObject(value)) return value ?? null;
  return Object.fromEntries(Object.entries(value).map(([locale, v]) => [locale, one(v)]));
}

/**
 * A `field_type` change (spec 02 §9): null when the conversion is not allowed; otherwise
 * the definition made valid for the new type.
 */
export function convertFieldType(
  definition: FieldDefinition,
  to: FieldType,
): FieldDefinition | null {
  const from = definition.field_type;
  if (from === to) return definition;
  const convert = CONVERSIONS[from]?.[to];
  if (!convert) return null;

  const target = FIELD_TYPE_CATALOG[to];
  const available: readonly string[] = [...target.requiredValidators, ...target.otherValidators];
  const validators: Record<string, unknown> = {};
  for (const [name, params] of Object.entries(definition.validators)) {
    const renamed = Object.hasOwn(RENAMED_VALIDATORS, name) ? RENAMED_VALIDATORS[name] : undefined;
    const newName = renamed ?? name;
    if (available.includes(newName)) validators[newName] = structuredClone(params);
  }
  if (!target.requiredValidators.every((name) => Object.hasOwn(validators, name))) return null;

  const editors: readonly string[] = target.editors;
  const appearance = editors.includes(definition.appearance.editor)
    ? definition.appearance
    : { ...defaultAppearance(to), addons: definition.appearance.addons };

  return {
    ...definition,
    field_type: to,
    validators,
    appearance,
    default_value: convertDefault(definition, convert),
  };
}
