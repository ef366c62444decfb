import { FIELD_TYPE_CATALOG } from './catalog.ts';
import { defaultAppearance } from './editors.ts';
import { isPlainObject } from './problems.ts';
import type { FieldDefinition, FieldType } from './types.ts';

/** How a non-null value (a record's, or a default) carries over to the new type; null when it does not. */
type ValueConversion = (value: unknown) => unknown;

const same: ValueConversion = (value) => value;
const first: ValueConversion = (value) => (Array.isArray(value) ? (value[0] ?? null) : null);
const wrapped: ValueConversion = (value) => [value];

/**
 * The allowed `field_type` changes and how a value converts: kept when the
 * new type holds it as it is, otherwise the nearest value of the new type (a list's first
 * entry, a rounded number, a date's midnight), null when there is none. Validators are
 * not applied here: a converted value that breaks one makes its record invalid.
 */
const CONVERSIONS: Partial<Record<FieldType, Partial<Record<FieldType, ValueConversion>>>> = {
  string: { text: same, slug: same, json: (v) => JSON.stringify(v) },
  text: { string: same, slug: same },
  slug: { string: same, text: same },
  integer: { float: same },
  float: {
    integer: (v) => {
      const rounded = Math.round(v as number);
      return Number.isSafeInteger(rounded) ? rounded : null;
    },
  },
  // No site timezone here: a date becomes midnight UTC.
  date: { date_time: (v) => `${v}T00:00:00+00:00` },
  date_time: { date: (v) => (v as string).slice(0, 10) },
  link: { links: wrapped },
  links: { link: first },
  file: { gallery: wrapped },
  gallery: { file: first },
};

/**
 * One stored value (one locale's, for a localized field) converted from one field type to
 * another allowed one. Null stays null; an empty single link or file becomes an empty list.
 */
export function convertValue(from: FieldType, to: FieldType, value: unknown): unknown {
  const convert = CONVERSIONS[from]?.[to];
  if (!convert) throw new Error(`no conversion from ${from} to ${to}`);
  if (value === null || value === undefined) return convert === wrapped ? [] : null;
  return convert(value);
}

/** Validators with the same meaning under another name on the new type. */
const RENAMED_VALIDATORS: Record<string, string> = {
  item_item_type: 'items_item_type',
  items_item_type: 'item_item_type',
};

/** A default carries over like a value, unless the new type has no default values. */
function convertDefault(definition: FieldDefinition, to: FieldType): unknown {
  const one = (value: unknown) =>
    FIELD_TYPE_CATALOG[to].defaultValueShape === null || value === null || value === undefined
      ? null
      : convertValue(definition.field_type, to, value);
  const value = definition.default_value;
  if (!definition.localized) return one(value);
  if (!isPlainObject(value)) return value ?? null;
  return Object.fromEntries(Object.entries(value).map(([locale, v]) => [locale, one(v)]));
}

/**
 * A `field_type` change: null when the conversion is not allowed; otherwise
 * the definition made valid for the new type.
 */
export function convertFieldType(
  definition: FieldDefinition,
  to: FieldType,
): FieldDefinition | null {
  const from = definition.field_type;
  if (from === to) return definition;
  if (!CONVERSIONS[from]?.[to]) return null;

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
    default_value: convertDefault(definition, to),
  };
}
