/**
 * Record values against their fields (spec 09 §3): the value shape of every field type, then
 * each validator of the field. Pure: the records service loads the fields, fills omitted
 * values (defaults on create, stored values on update) and runs what is handed back.
 *
 *   const locales = recordLocales(fields, attributes, { locales, allLocalesRequired });
 *   const { issues, deferred, value } = checkRecordValue(field, attributes[field.api_key],
 *     { locales, recordLocales: locales });
 *   // or checkRecordValues(fields, attributes, { locales, allLocalesRequired }) for them all
 *
 * - `issues`: what is wrong, one per failing check, each naming the field (api_key, id, label,
 *   type) and, for a localized field, the locale; `code` is a RecordValueCode. The service
 *   reports them as 422 INVALID_FIELD.
 * - `deferred`: what needs the database — `unique` values, link targets and their models,
 *   blocks and their models, uploads' metadata — each with the field and locale it came from.
 * - `value`: what to store: localized values keyed by the record's locales in site order,
 *   `sanitized_html` values cleaned when the validator says `sanitize_before_validation`.
 *
 * Null is always a valid shape (empty); emptiness is the `required` validator's business.
 * Until uploads exist, a value naming an upload (file, gallery entry, seo image) is refused.
 */
import { noReferences, type ValueReferences } from './block-refs.ts';
import { sanitizeHtml } from './html-safety.ts';
import { isPlainObject, ownValue, quoteList } from './problems.ts';
import {
  type DeferredCheck,
  RECORD_VALUE_RULES,
  type RecordValueCode,
  type RecordValueRule,
  validatorCode,
} from './record-value-rules.ts';
import { RECORD_VALUE_SHAPES } from './record-value-shapes.ts';
import type { FieldDefinition, FieldType } from './types.ts';
import type { ValidatorName } from './validators.ts';

/** What the checks need of a field: its identity for messages, type, localization, validators. */
export type RecordField = Pick<FieldDefinition, 'field_type' | 'localized'> & {
  id: string;
  api_key: string;
  label: string;
  /** As stored: validator name → checked parameters. */
  validators: Readonly<Record<string, unknown>>;
};

export type RecordValueContext = {
  /** The environment's locales, in order. */
  locales: readonly string[];
  /** The locales the record is in (see recordLocales); a localized value is checked in each. */
  recordLocales: readonly string[];
};

/** One problem of one value: the `details` of a DatoCMS-like INVALID_FIELD error. */
export type RecordValueIssue = {
  /** The field's api_key. */
  field: string;
  field_id: string;
  field_label: string;
  field_type: FieldType;
  /** Present for localized fields (except whole-value problems such as a non-object). */
  locale?: string;
  code: RecordValueCode;
  message: string;
  /** The failed validator, for validator issues. */
  validator?: ValidatorName;
  /** For INVALID_LOCALES: the locales the value must have. */
  required_locales?: string[];
};

export type FieldDeferredCheck = DeferredCheck & {
  field: string;
  field_id: string;
  locale?: string;
};

export type RecordValueCheck = {
  issues: RecordValueIssue[];
  deferred: FieldDeferredCheck[];
  value: unknown;
};

const UPLOADS_MISSING =
  'this server does not store uploads yet, so file, gallery and SEO image values must stay empty';

/** The field's validators in stored order, each with its rule (an unknown name is a bug). */
function rulesOf(field: RecordField): [ValidatorName, RecordValueRule, Record<string, unknown>][] {
  return Object.entries(field.validators).map(([name, params]) => {
    const rule = ownValue<RecordValueRule>(RECORD_VALUE_RULES, name);
    if (!rule) throw new Error(`no record value rule for validator "${name}"`);
    return [name as ValidatorName, rule, isPlainObject(params) ? params : {}];
  });
}

/** Applies `sanitize_before_validation` before anything looks at a text value. */
function sanitized(field: RecordField, value: unknown): unknown {
  const params = ownValue(field.validators, 'sanitized_html');
  return typeof value === 'string' &&
    isPlainObject(params) &&
    params.sanitize_before_validation === true
    ? sanitizeHtml(value)
    : value;
}

/** The part of an issue that names the field (and the locale, for localized values). */
function naming(field: RecordField, locale?: string) {
  return {
    field: field.api_key,
    field_id: field.id,
    ...(locale ? { locale } : {}),
    field_label: field.label,
    field_type: field.field_type,
  };
}

/** One value (one locale's, for localized fields). */
function checkOne(
  field: RecordField,
  raw: unknown,
  locale: string | undefined,
  result: RecordValueCheck,
): unknown {
  const issue = (code: RecordValueCode, message: string, validator?: ValidatorName) =>
    result.issues.push({
      ...naming(field, locale),
      code,
      message,
      ...(validator ? { validator } : {}),
    });

  const value = raw === undefined ? null : sanitized(field, raw);
  const refs: ValueReferences = noReferences();
  if (value !== null) {
    const shapeProblem = RECORD_VALUE_SHAPES[field.field_type](value, refs);
    if (shapeProblem) {
      issue('VALIDATION_INVALID', `${field.field_type} value ${shapeProblem}`);
      return value;
    }
    if (refs.uploads.length > 0) {
      issue('VALIDATION_INVALID', `names upload ${quoteList(refs.uploads)}: ${UPLOADS_MISSING}`);
      return value;
    }
  }
  for (const [name, rule, params] of rulesOf(field)) {
    if (value === null && rule.sees === 'values') continue;
    const outcome = rule.check({ value, params, refs });
    if (outcome === null) continue;
    if ('problem' in outcome) issue(validatorCode(name), outcome.problem, name);
    else
      result.deferred.push({
        ...outcome.defer,
        field: field.api_key,
        field_id: field.id,
        ...(locale ? { locale } : {}),
      });
  }
  return value;
}

/** Checks one field's value (localized: `{locale: value}` over the record's locales). */
export function checkRecordValue(
  field: RecordField,
  value: unknown,
  context: RecordValueContext,
): RecordValueCheck {
  const result: RecordValueCheck = { issues: [], deferred: [], value: null };
  if (!field.localized) {
    result.value = checkOne(field, value, undefined, result);
    return result;
  }
  const wanted = [...context.recordLocales];
  const localeIssue = (message: string) =>
    result.issues.push({
      ...naming(field),
      code: 'INVALID_LOCALES',
      message,
      required_locales: wanted,
    });
  // Omitted altogether: empty in every locale (the service fills stored values beforehand).
  const byLocale = value === undefined ? {} : value;
  // An object naming no site locale is a value sent unwrapped (e.g. a color), not locales.
  const namesNoLocale =
    isPlainObject(byLocale) &&
    Object.keys(byLocale).length > 0 &&
    Object.keys(byLocale).every((key) => !context.locales.includes(key));
  if (!isPlainObject(byLocale) || namesNoLocale) {
    result.issues.push({
      ...naming(field),
      code: 'VALIDATION_INVALID',
      message: `a localized field's value must be an object keyed by locale (${quoteList(wanted)})`,
    });
    result.value = value;
    return result;
  }
  const keys = Object.keys(byLocale);
  const unknown = keys.filter((key) => !context.locales.includes(key));
  // A locale the record is not in may be named only to say "empty" (e.g. a default value
  // keyed by every site locale); a locale it is in but the value leaves out is empty too.
  const extra = keys.filter(
    (key) => context.locales.includes(key) && !wanted.includes(key) && byLocale[key] !== null,
  );
  if (unknown.length > 0)
    localeIssue(
      `unknown locale ${quoteList(unknown)} (site locales: ${quoteList(context.locales)})`,
    );
  if (extra.length > 0)
    localeIssue(
      `has values for ${quoteList(extra)}, which are not locales of this record (${quoteList(wanted)})`,
    );
  result.value = Object.fromEntries(
    wanted.map((locale) => [locale, checkOne(field, ownValue(byLocale, locale), locale, result)]),
  );
  return result;
}

export type RecordLocalesOptions = {
  /** The environment's locales, in order; the first is the main one. */
  locales: readonly string[];
  /** The model's `all_locales_required`. */
  allLocalesRequired: boolean;
};

/**
 * The locales a record is in. `all_locales_required` models: every site locale. Others: the
 * first locale (spec 09 §3 PROPOSAL) plus every site locale in which some localized value is
 * not null. In site order.
 */
export function recordLocales(
  fields: readonly RecordField[],
  attributes: Readonly<Record<string, unknown>>,
  options: RecordLocalesOptions,
): string[] {
  if (options.allLocalesRequired) return [...options.locales];
  const named = new Set<string>(options.locales.slice(0, 1));
  for (const field of fields) {
    const value = field.localized ? ownValue(attributes, field.api_key) : undefined;
    if (!isPlainObject(value)) continue;
    for (const [key, localeValue] of Object.entries(value))
      if (localeValue !== null) named.add(key);
  }
  return options.locales.filter((locale) => named.has(locale));
}

/**
 * Checks every field's value of a record (`attributes` keyed by api_key; a missing key is an
 * empty value; a key naming no field is the caller's to refuse). Returns the issues and
 * deferred checks of all fields and the values to store.
 */
export function checkRecordValues(
  fields: readonly RecordField[],
  attributes: Readonly<Record<string, unknown>>,
  options: RecordLocalesOptions,
): {
  issues: RecordValueIssue[];
  deferred: FieldDeferredCheck[];
  values: Record<string, unknown>;
  recordLocales: string[];
} {
  const locales = recordLocales(fields, attributes, options);
  const context = { locales: options.locales, recordLocales: locales };
  const issues: RecordValueIssue[] = [];
  const deferred: FieldDeferredCheck[] = [];
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const checked = checkRecordValue(field, ownValue(attributes, field.api_key), context);
    issues.push(...checked.issues);
    deferred.push(...checked.deferred);
    values[field.api_key] = checked.value;
  }
  return { issues, deferred, values, recordLocales: locales };
}
