import { isDeepStrictEqual } from 'node:util';
import type { FieldIssue, ValidationCode } from '../errors.ts';
import { orEmpty } from '../schema/field-types/empty-values.ts';
import { isPlainObject } from '../schema/field-types/problems.ts';
import { checkRecordValues } from '../schema/field-types/record-values.ts';
import { byApiKey } from './blocks/block-schema.ts';
import { blockIdValues } from './blocks/block-values.ts';
import type { ItemField } from './model-fields.ts';

// A record's content split the way selective publishing splits it: one part per locale
// (every localized field's value in that locale) and the non-localized part. Values are
// keyed by field id, as stored; a localized value is keyed by the record's locales, which
// every localized field of a record shares (record-values.ts): the record's locale set is
// read from its values (localesOf), never stored apart from them.

type Values = Record<string, unknown>;

function localizedValue(values: Values, field: ItemField): Record<string, unknown> | undefined {
  const value = values[field.id];
  return field.localized && isPlainObject(value) ? value : undefined;
}

/** The locales the values are in (the keys their localized values hold), in site order. */
export function localesOf(
  fields: readonly ItemField[],
  values: Values | null,
  siteLocales: readonly string[],
): string[] {
  if (values === null) return [];
  const named = new Set<string>();
  for (const field of fields)
    for (const key of Object.keys(localizedValue(values, field) ?? {})) named.add(key);
  return siteLocales.filter((locale) => named.has(locale));
}

/** One locale's part of the values: each localized field's value in it. */
function localePart(fields: readonly ItemField[], values: Values, locale: string): unknown[] {
  return fields.filter((f) => f.localized).map((f) => localizedValue(values, f)?.[locale] ?? null);
}

/** The non-localized part of the values. */
function nonLocalizedPart(fields: readonly ItemField[], values: Values | null): unknown[] {
  return fields.filter((f) => !f.localized).map((f) => values?.[f.id] ?? null);
}

export type LocaleComparison = {
  current_version_locales: string[];
  published_version_locales: string[];
  changed_locales: string[];
  added_locales: string[];
  removed_locales: string[];
  non_localized_fields_changed: boolean;
};

/**
 * What publishing the current values would change, per part. Both sides must hold their
 * blocks the same way (inline, as published values do) for blocks edited in place to count.
 * Key order does not matter: stored JSON comes back with its keys reordered.
 */
export function compareContent(
  fields: readonly ItemField[],
  current: Values,
  published: Values | null,
  siteLocales: readonly string[],
): LocaleComparison {
  const currentLocales = localesOf(fields, current, siteLocales);
  const publishedLocales = localesOf(fields, published, siteLocales);
  return {
    current_version_locales: currentLocales,
    published_version_locales: publishedLocales,
    changed_locales: currentLocales.filter(
      (locale) =>
        published !== null &&
        publishedLocales.includes(locale) &&
        !isDeepStrictEqual(
          localePart(fields, current, locale),
          localePart(fields, published, locale),
        ),
    ),
    added_locales: currentLocales.filter((locale) => !publishedLocales.includes(locale)),
    removed_locales: publishedLocales.filter((locale) => !currentLocales.includes(locale)),
    non_localized_fields_changed: !isDeepStrictEqual(
      nonLocalizedPart(fields, current),
      nonLocalizedPart(fields, published),
    ),
  };
}

type ValidityOptions = { locales: readonly string[]; allLocalesRequired: boolean };

/**
 * The issues of the values' fields (shapes and validators, no database), each with the
 * part it falls in: a locale list, or null for the non-localized part. A localized value
 * wrong as a whole (not keyed by locale, a missing locale) falls in the locales it must
 * have, else in every locale of the record.
 */
function issuesByPart(fields: readonly ItemField[], values: Values, options: ValidityOptions) {
  const { issues, recordLocales } = checkRecordValues(fields, byApiKey(fields, values), options);
  const localized = new Set(fields.filter((f) => f.localized).map((f) => f.id));
  return issues.map((issue) => ({
    issue,
    locales: !localized.has(issue.field_id)
      ? null
      : issue.locale !== undefined
        ? [issue.locale]
        : (issue.required_locales ?? recordLocales),
  }));
}

/** Which parts of the values fail their fields' checks. */
export function invalidParts(
  fields: readonly ItemField[],
  values: Values,
  options: ValidityOptions,
): { locales: string[]; nonLocalized: boolean } {
  const parts = issuesByPart(fields, values, options);
  const locales = new Set(parts.flatMap((part) => part.locales ?? []));
  return {
    locales: options.locales.filter((locale) => locales.has(locale)),
    nonLocalized: parts.some((part) => part.locales === null),
  };
}

/** Whether values with their blocks inline (a version's, the published ones) pass the checks. */
export function snapshotValid(
  fields: readonly ItemField[],
  values: Values,
  options: ValidityOptions,
): boolean {
  const invalid = invalidParts(fields, blockIdValues(fields, values), options);
  return invalid.locales.length === 0 && !invalid.nonLocalized;
}

/** The issues of the selected parts of the values (what selective publishing refuses). */
export function selectedIssues(
  fields: readonly ItemField[],
  values: Values,
  options: ValidityOptions,
  selection: ContentSelection,
): FieldIssue[] {
  return issuesByPart(fields, values, options)
    .filter(({ locales }) =>
      locales === null
        ? selection.nonLocalized
        : locales.some((locale) => selection.locales.includes(locale)),
    )
    .map(({ issue }) => ({ ...issue, code: issue.code as ValidationCode }));
}

/** Selective publishing: which parts of the current values to publish. */
export type ContentSelection = { locales: readonly string[]; nonLocalized: boolean };

/** A selection as the API sends it (a publish body's attributes, `selective_publication`). */
export type SelectivePublicationInput = {
  content_in_locales: readonly string[];
  non_localized_content: boolean;
};

export function contentSelectionOf(input: SelectivePublicationInput): ContentSelection {
  return { locales: input.content_in_locales, nonLocalized: input.non_localized_content };
}

/**
 * The published values after publishing the selected parts of the current values: a
 * selected locale takes its current content (or, when the current values are no longer
 * in it, leaves the published ones), other locales keep what was published, and the
 * non-localized part is the current one only when selected.
 */
export function publishSelected(
  fields: readonly ItemField[],
  current: Values,
  published: Values | null,
  selection: ContentSelection,
  siteLocales: readonly string[],
): Values {
  const currentLocales = localesOf(fields, current, siteLocales);
  const publishedLocales = localesOf(fields, published, siteLocales);
  const locales = siteLocales.filter((locale) =>
    selection.locales.includes(locale)
      ? currentLocales.includes(locale)
      : publishedLocales.includes(locale),
  );
  const result: Values = {};
  for (const field of fields) {
    if (!field.localized) {
      result[field.id] = orEmpty(
        field.field_type,
        (selection.nonLocalized ? current : published)?.[field.id],
      );
      continue;
    }
    const source = (locale: string) =>
      selection.locales.includes(locale) ? current : (published ?? {});
    result[field.id] = Object.fromEntries(
      locales.map((locale) => [
        locale,
        orEmpty(field.field_type, localizedValue(source(locale), field)?.[locale]),
      ]),
    );
  }
  return result;
}

/** The published values without some locales (selective unpublishing). */
export function withoutLocales(
  fields: readonly ItemField[],
  published: Values,
  locales: readonly string[],
): Values {
  const result: Values = { ...published };
  for (const field of fields) {
    const value = localizedValue(published, field);
    if (value)
      result[field.id] = Object.fromEntries(
        Object.entries(value).filter(([locale]) => !locales.includes(locale)),
      );
  }
  return result;
}
