import type { DeliveryRecord } from './context.ts';

/** Null, `""` and `[]` count as no value: fallback locales replace them (DatoCMS). */
function isBlank(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * A field's stored value in the record's version: a localized one in the locale asked
 * (the field's `locale` argument, else the query's), else the first fallback locale
 * holding a value.
 */
export function storedValue(
  record: DeliveryRecord,
  field: Readonly<{ id: string; localized: boolean }>,
  args: Readonly<{ locale?: string | null; fallbackLocales?: readonly string[] | null }>,
): unknown {
  const value = record.row.values[field.id];
  if (!field.localized) return value ?? null;
  const byLocale = (value ?? {}) as Record<string, unknown>;
  const locale = args.locale ?? record.locale;
  const fallbacks = args.fallbackLocales ?? record.fallbackLocales;
  for (const candidate of [locale, ...fallbacks]) {
    const found = byLocale[candidate];
    if (!isBlank(found)) return found;
  }
  return byLocale[locale] ?? null;
}
