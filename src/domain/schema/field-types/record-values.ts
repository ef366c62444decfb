/**
 * Record values against their fields: the value shape of every field type, then
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
 * - `uploads`: every upload a value names, with its field and locale: each must exist in
 *   the environment, which only the records service can tell.
 * - `value`: what to store: localized values keyed by the record's locales in site order,
 *   `sanitized_html` values cleaned when the validator says `sanitize_before_validation`,
 *   an empty value as its type holds it (`[]` for links, gallery and modular content), a file
 *   value or gallery entry with all six keys (upload-values.ts).
 *
 * Null is always a valid shape (empty); emptiness is the `required` validator's business.
 */
import { noReferences, type UploadMention, type ValueReferences } from './block-refs.ts';
import { emptyValue, isListType } from './empty-values.ts';
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
import { filledUploadValue } from './upload-values.ts';
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
  /** The model's `all_locales_required`: the record's locales are every site locale. */
  allLocalesRequired?: boolean;
  /**
   * The value is the field's default, which a write fills in for a field it does not send:
   * keyed by every site locale, it takes the record's locales instead of having to match.
   */
  defaulted?: boolean;
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

/** An upload a value names, with the field (and locale) whose value names it. */
export type FieldUploadMention = UploadMention & {
  field: string;
  field_id: string;
  locale?: string;
};

export type RecordValueCheck = {
  issues: RecordValueIssue[];
  deferred: FieldDeferredCheck[];
  uploads: FieldUploadMention[];
  value: unknown;
};

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

const isEmptyList = (value: unknown) => Array.isArray(value) && value.length === 0;

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

  let value =
    raw === undefined || raw === null ? emptyValue(field.field_type) : sanitized(field, raw);
  // An empty list is the type's empty value, as null is for other types: the same for
  // every rule (a `size` minimum judges a list that holds something).
  const empty = value === null || (isListType(field.field_type) && isEmptyList(value));
  const refs: ValueReferences = noReferences();
  if (value !== null) {
    const shapeProblem = RECORD_VALUE_SHAPES[field.field_type](value, refs);
    if (shapeProblem) {
      issue('VALIDATION_INVALID', `${field.field_type} value ${shapeProblem}`);
      return value;
    }
    value = filledUploadValue(field.field_type, value);
    for (const mention of refs.uploads)
      result.uploads.push({
        ...mention,
        field: field.api_key,
        field_id: field.id,
        ...(locale ? { locale } : {}),
      });
  }
  for (const [name, rule, params] of rulesOf(field)) {
    if (empty && rule.sees === 'values') continue;
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
  const result: RecordValueCheck = { issues: [], deferred: [], uploads: [], value: null };
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
  if (unknown.length > 0)
    localeIssue(
      `unknown locale ${quoteList(unknown)} (site locales: ${quoteList(context.locales)})`,
    );
  else if (value !== undefined && !context.defaulted && !sameLocales(keys, wanted))
    localeIssue(
      context.allLocalesRequired
        ? `has locales ${quoteList(keys)}, but the model requires every site locale (${quoteList(wanted)})`
        : `has locales ${quoteList(keys)}, but the record's localized fields are in ${quoteList(wanted)}: every localized field of a record has the same locales (to add or remove a locale, send every localized field with it)`,
    );
  result.value = Object.fromEntries(
    wanted.map((locale) => [locale, checkOne(field, ownValue(byLocale, locale), locale, result)]),
  );
  return result;
}

function sameLocales(keys: readonly string[], wanted: readonly string[]): boolean {
  return keys.length === wanted.length && wanted.every((locale) => keys.includes(locale));
}

export type RecordLocalesOptions = {
  /** The environment's locales, in order; the first is the main one. */
  locales: readonly string[];
  /** The model's `all_locales_required`. */
  allLocalesRequired: boolean;
  /**
   * The api_keys of fields whose value the write takes from the field's default (a create's
   * omitted fields): they follow the record's locales rather than name them.
   */
  defaulted?: ReadonlySet<string>;
  /**
   * An update's sent api_keys: the localized fields it leaves out keep the record's stored
   * locales, which the sent ones must then match; a write changes a record's locales only by
   * sending every localized field with them.
   */
  sent?: ReadonlySet<string>;
};

/**
 * The locales a record is in: the locale keys of its localized values, which every
 * localized field of a record shares (DatoCMS: "you can just define a subset of them, as
 * long as all localized fields express the exact same subset"), in site order.
 * `all_locales_required` models: every site locale. The keys come from the first
 * localized value that names them (on an update, one the update leaves as stored);
 * defaults name none, so a record given no localized value is in every site locale, as
 * its defaults are.
 */
export function recordLocales(
  fields: readonly RecordField[],
  attributes: Readonly<Record<string, unknown>>,
  options: RecordLocalesOptions,
): string[] {
  if (options.allLocalesRequired) return [...options.locales];
  const naming = fields.filter(
    (field) =>
      field.localized &&
      !options.defaulted?.has(field.api_key) &&
      isPlainObject(ownValue(attributes, field.api_key)),
  );
  const kept = naming.filter((field) => options.sent && !options.sent.has(field.api_key));
  const first = kept[0] ?? naming[0];
  if (!first) return [...options.locales];
  const keys = Object.keys(ownValue(attributes, first.api_key) as Record<string, unknown>);
  return options.locales.filter((locale) => keys.includes(locale));
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
  uploads: FieldUploadMention[];
  values: Record<string, unknown>;
  recordLocales: string[];
} {
  const locales = recordLocales(fields, attributes, options);
  const issues: RecordValueIssue[] = [];
  const deferred: FieldDeferredCheck[] = [];
  const uploads: FieldUploadMention[] = [];
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const checked = checkRecordValue(field, ownValue(attributes, field.api_key), {
      locales: options.locales,
      recordLocales: locales,
      allLocalesRequired: options.allLocalesRequired,
      defaulted: options.defaulted?.has(field.api_key) ?? false,
    });
    issues.push(...checked.issues);
    deferred.push(...checked.deferred);
    uploads.push(...checked.uploads);
    values[field.api_key] = checked.value;
  }
  return { issues, deferred, uploads, values, recordLocales: locales };
}
