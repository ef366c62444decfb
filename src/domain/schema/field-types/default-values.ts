import { FIELD_TYPE_CATALOG } from './catalog.ts';
import { isPlainObject, ownValue, type Problems, quoteList } from './problems.ts';
import type { FieldDefinition, FieldType } from './types.ts';

/** The default `default_value` for a new field: null, or {locale: null…} when localized. */
export function emptyDefaultValue(localized: boolean, locales: string[]): unknown {
  return localized ? Object.fromEntries(locales.map((locale) => [locale, null])) : null;
}

/**
 * A default is checked for its type's shape only: validators judge record values, so a
 * blank `""` next to a `format` or `enum` validator is "no default", as DatoCMS stores it.
 */
function checkOneValue(
  problems: Problems,
  fieldType: FieldType,
  value: unknown,
  locale: string | null,
): unknown {
  if (value === null || value === undefined) return null;
  const where = locale === null ? '' : `locale "${locale}": `;
  const shape = FIELD_TYPE_CATALOG[fieldType].defaultValueShape;
  const problem = shape
    ? shape(value)
    : `${fieldType} fields do not support a default value; it must be null`;
  if (problem) problems.invalid(`${where}${problem}`);
  return value;
}

/**
 * Checks a default value against the type's value shape. Localized: an object keyed by the site's locales, missing locales filled with null.
 */
export function checkDefaultValue(
  problems: Problems,
  definition: Pick<FieldDefinition, 'field_type' | 'localized' | 'default_value'>,
  locales: string[],
): unknown {
  const { field_type: fieldType, default_value: raw } = definition;
  if (!definition.localized) return checkOneValue(problems, fieldType, raw, null);
  if (raw === null || raw === undefined) return emptyDefaultValue(true, locales);
  if (!isPlainObject(raw)) {
    problems.invalid(
      `a localized field's default value must be an object keyed by locale (${quoteList(locales)})`,
    );
    return emptyDefaultValue(true, locales);
  }
  const unknown = Object.keys(raw).filter((key) => !locales.includes(key));
  if (unknown.length > 0)
    problems.invalid(`unknown locale ${quoteList(unknown)} (site locales: ${quoteList(locales)})`);
  return Object.fromEntries(
    locales.map((locale) => [
      locale,
      checkOneValue(problems, fieldType, ownValue(raw, locale), locale),
    ]),
  );
}

/**
 * `localized` toggled: false→true wraps the default into {locale: old};
 * true→false keeps the first locale's value.
 */
export function convertLocalization(
  definition: FieldDefinition,
  localized: boolean,
  locales: string[],
): FieldDefinition {
  if (definition.localized === localized) return definition;
  const old = definition.default_value ?? null;
  const firstLocale = locales[0];
  const default_value = localized
    ? Object.fromEntries(locales.map((locale) => [locale, structuredClone(old)]))
    : isPlainObject(old) && firstLocale !== undefined
      ? (ownValue(old, firstLocale) ?? null)
      : null;
  return { ...definition, localized, default_value };
}
