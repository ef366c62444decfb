import type { FieldType } from './types.ts';

/**
 * The value a field of each type holds when it holds nothing. The official client types a
 * links, gallery or modular content (`rich_text`) value as a list that is never null
 * (`LinksFieldValue = string[]`, `GalleryFieldValue`, `RichTextFieldValue`), so those are
 * empty as `[]`; every other type's value is nullable and empty as null.
 */
const LIST_TYPES: ReadonlySet<string> = new Set<FieldType>(['links', 'gallery', 'rich_text']);

export function isListType(fieldType: string): boolean {
  return LIST_TYPES.has(fieldType);
}

/** A fresh empty value of the type (a new list each time: callers may keep it). */
export function emptyValue(fieldType: string): unknown {
  return isListType(fieldType) ? [] : null;
}

/** One value (one locale's, for localized fields) with null and missing read as empty. */
export function orEmpty(fieldType: string, value: unknown): unknown {
  return value === null || value === undefined ? emptyValue(fieldType) : value;
}

/**
 * A field's whole value with null and missing read as empty: in each locale of a localized
 * value (a localized value that is not an object is left as it is).
 */
export function withEmptyValues(
  field: { field_type: string; localized: boolean },
  value: unknown,
): unknown {
  if (!field.localized) return orEmpty(field.field_type, value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value ?? null;
  return Object.fromEntries(
    Object.entries(value).map(([locale, inLocale]) => [
      locale,
      orEmpty(field.field_type, inLocale),
    ]),
  );
}
