import { isDeepStrictEqual } from 'node:util';
import type { ItemField } from './model-fields.ts';
import type { ContentPart } from './permission-entries.ts';

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
  const parts: ContentPart[] = [];
  for (const field of fields) {
    const old = before.values[field.id] ?? null;
    const now = after.values[field.id] ?? null;
    if (!field.localized) {
      if (!sameContent(old, now)) parts.push({ field: field.api_key, locale: null });
      continue;
    }
    const oldByLocale = byLocale(old);
    const nowByLocale = byLocale(now);
    for (const locale of new Set([...Object.keys(oldByLocale), ...Object.keys(nowByLocale)]))
      if (
        !Object.hasOwn(oldByLocale, locale) ||
        !Object.hasOwn(nowByLocale, locale) ||
        !sameContent(oldByLocale[locale], nowByLocale[locale])
      )
        parts.push({ field: field.api_key, locale });
  }
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
  const parts: ContentPart[] = [];
  for (const field of fields) {
    if (!Object.hasOwn(sent, field.api_key)) continue;
    const value = sent[field.api_key] ?? null;
    const fallback = field.default_value ?? null;
    if (!field.localized) {
      if (!sameContent(value, fallback)) parts.push({ field: field.api_key, locale: null });
      continue;
    }
    const given = byLocale(value);
    const defaults = byLocale(fallback);
    for (const locale of new Set([...Object.keys(given), ...Object.keys(defaults)]))
      if (!sameContent(given[locale] ?? null, defaults[locale] ?? null))
        parts.push({ field: field.api_key, locale });
  }
  if (placement.parent_id !== null) parts.push({ field: 'parent_id', locale: null });
  if (placement.position !== undefined) parts.push({ field: 'position', locale: null });
  return parts;
}

function byLocale(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function sameContent(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(withoutBlockTimes(a), withoutBlockTimes(b));
}

/** A snapshot without its blocks' `created_at`/`updated_at` (a block node has `item_type_id` and `values`). */
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
