import { isDeepStrictEqual } from 'node:util';
import { emptyValue, withEmptyValues } from '../schema/field-types/empty-values.ts';
import type { ContentPart } from './access/permission-entries.ts';
import type { ItemField } from './model-fields.ts';

/**
 * Which values a record write changes, for permissions limited to some content
 * (`localization_scope`): each non-localized field whose value changes, each locale of a
 * localized field whose value in it changes (a locale given or taken away included), and
 * the record's placement. Values are compared as snapshots (blocks inline), so a block
 * edited in place counts as a change of the field holding it; the times a write stamps on
 * the blocks it saves do not.
 */
export function changedContent(
  fields: readonly ItemField[],
  before: { values: Record<string, unknown>; parent_id: string | null; position: number | null },
  after: { values: Record<string, unknown>; parent_id: string | null; position: number | null },
): ContentPart[] {
  const parts = fields.flatMap((field) =>
    partsDiffering(field, before.values[field.id], after.values[field.id], localeChanged),
  );
  if (before.parent_id !== after.parent_id) parts.push({ field: 'parent_id', locale: null });
  if (before.position !== after.position) parts.push({ field: 'position', locale: null });
  return parts;
}

/**
 * Which values a create gives, for permissions limited to some content: each field sent
 * with a value other than its default (what the record holds when it is not sent), per
 * locale for localized fields, a null or missing locale matching a null default; and the
 * record's placement when given. Defaults the caller did not send are the model's doing.
 */
export function givenContent(
  fields: readonly ItemField[],
  sent: Record<string, unknown>,
  placement: { parent_id: string | null; position: number | undefined },
): ContentPart[] {
  const parts = fields
    .filter((field) => Object.hasOwn(sent, field.api_key))
    .flatMap((field) =>
      partsDiffering(field, sent[field.api_key], field.default_value, localeDiffersFromDefault),
    );
  if (placement.parent_id !== null) parts.push({ field: 'parent_id', locale: null });
  if (placement.position !== undefined) parts.push({ field: 'position', locale: null });
  return parts;
}

/** Whether one locale of a localized value differs between two values of the field. */
type LocaleDiffers = (
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  locale: string,
  /** The field type's empty value. */
  empty: unknown,
) => boolean;

/** A write's: the locale given, taken away, or holding another value. */
const localeChanged: LocaleDiffers = (a, b, locale) =>
  !Object.hasOwn(a, locale) || !Object.hasOwn(b, locale) || !sameContent(a[locale], b[locale]);

/** A create's: a missing locale is the empty value the record holds there. */
const localeDiffersFromDefault: LocaleDiffers = (a, b, locale, empty) =>
  !sameContent(a[locale] ?? empty, b[locale] ?? empty);

/**
 * The parts of one field that differ between two of its values: the field, when it is not
 * localized; else each locale of either value that `localeDiffers` says differs.
 */
function partsDiffering(
  field: ItemField,
  a: unknown,
  b: unknown,
  localeDiffers: LocaleDiffers,
): ContentPart[] {
  // Null and `[]` are the same empty list value (empty-values.ts).
  const [aValue, bValue] = [withEmptyValues(field, a), withEmptyValues(field, b)];
  if (!field.localized)
    return sameContent(aValue, bValue) ? [] : [{ field: field.api_key, locale: null }];
  const aByLocale = byLocale(aValue);
  const bByLocale = byLocale(bValue);
  return [...new Set([...Object.keys(aByLocale), ...Object.keys(bByLocale)])]
    .filter((locale) => localeDiffers(aByLocale, bByLocale, locale, emptyValue(field.field_type)))
    .map((locale) => ({ field: field.api_key, locale }));
}

function byLocale(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function sameContent(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(withoutBlockTimes(a), withoutBlockTimes(b));
}

/**
 * A snapshot without its blocks' `created_at`/`updated_at` (a block node has `item_type_id`
 * and `values`). The snapshots compared are built by snapshotValues, which inlines no block
 * past MAX_NESTING_DEPTH, and dast documents are as bounded: so is this recursion.
 */
function withoutBlockTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutBlockTimes);
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const isBlock = Object.hasOwn(object, 'item_type_id') && Object.hasOwn(object, 'values');
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => !(isBlock && (key === 'created_at' || key === 'updated_at')))
      .map(([key, inner]) => [key, withoutBlockTimes(inner)]),
  );
}
