import { isIsoDate, isIsoDateTime } from './iso-dates.ts';
import { isPlainObject, ownValue, quoteList } from './problems.ts';

/** What is wrong with one parameter value ("must be …"), or null when it is fine. */
export type ParamCheck = (value: unknown) => string | null;

/** The parameters of one validator or editor. */
export type ParamSpec = {
  /** Every accepted parameter, in the order they are stored. */
  readonly checks: Readonly<Record<string, ParamCheck>>;
  readonly required?: readonly string[];
  /** Documented defaults, filled in when the parameter is missing. */
  readonly defaults?: Readonly<Record<string, unknown>>;
};

export type CheckedParams = { params: Record<string, unknown>; errors: string[] };

/**
 * Checks a parameters object: unknown keys and bad values are errors, an explicit null means
 * "not set". Returns the parameters in canonical order with missing defaults filled in.
 */
export function checkParams(spec: ParamSpec, raw: unknown): CheckedParams {
  if (!isPlainObject(raw)) return { params: {}, errors: ['parameters must be an object'] };
  const accepted = Object.keys(spec.checks);
  const errors: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const check = ownValue(spec.checks, key);
    if (!check) {
      errors.push(`unknown parameter "${key}" (accepted: ${quoteList(accepted)})`);
      continue;
    }
    const problem = value === null ? null : check(value);
    if (problem) errors.push(`"${key}" ${problem}`);
  }
  for (const key of spec.required ?? []) {
    if (raw[key] === undefined || raw[key] === null) errors.push(`"${key}" is required`);
  }
  const params: Record<string, unknown> = {};
  for (const key of accepted) {
    const value = ownValue(raw, key);
    if (value !== undefined && value !== null) params[key] = value;
    else if (spec.defaults && Object.hasOwn(spec.defaults, key))
      params[key] = structuredClone(spec.defaults[key]);
  }
  return { params, errors };
}

/** A list whose entries the server does not interpret: kept as sent. */
export const list: ParamCheck = (v) => (Array.isArray(v) ? null : 'must be an array');

export const bool: ParamCheck = (v) => (typeof v === 'boolean' ? null : 'must be a boolean');

export const text: ParamCheck = (v) => (typeof v === 'string' ? null : 'must be a string');

export const float: ParamCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number';

export function integer(min: number): ParamCheck {
  return (v) =>
    Number.isSafeInteger(v) && (v as number) >= min
      ? null
      : min === 0
        ? 'must be a non-negative integer'
        : `must be an integer of at least ${min}`;
}

export function oneOf(values: readonly string[]): ParamCheck {
  return (v) =>
    typeof v === 'string' && values.includes(v) ? null : `must be one of ${quoteList(values)}`;
}

/** An array whose entries all come from `values`. */
export function subsetOf(values: readonly (string | number)[]): ParamCheck {
  return (v) => {
    if (!Array.isArray(v)) return `must be an array of ${quoteList(values)}`;
    const wrong = v.filter((entry) => !values.includes(entry));
    return wrong.length === 0
      ? null
      : `contains ${quoteList(wrong)}; allowed values: ${quoteList(values)}`;
  };
}

function strings(options: { nonEmpty: boolean; unique: boolean }): ParamCheck {
  return (v) => {
    if (!Array.isArray(v) || !v.every((entry) => typeof entry === 'string' && entry !== ''))
      return 'must be an array of non-empty strings';
    if (options.nonEmpty && v.length === 0) return 'must not be empty';
    if (options.unique && new Set(v).size !== v.length) return 'must not contain duplicates';
    return null;
  };
}

export const stringList = strings({ nonEmpty: true, unique: false });

/** A list DatoCMS returns empty when it is not in use. */
export const optionalStringList = strings({ nonEmpty: false, unique: false });

/** Item-type ids: may be empty (a field can be created before its targets exist). */
export const idList = strings({ nonEmpty: false, unique: true });

export const isoDate: ParamCheck = (v) =>
  isIsoDate(v) || isIsoDateTime(v) ? null : 'must be an ISO 8601 date (YYYY-MM-DD)';

export const isoDateTime: ParamCheck = (v) =>
  isIsoDateTime(v) || isIsoDate(v) ? null : 'must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SS…)';

export const regexp: ParamCheck = (v) => {
  if (typeof v !== 'string' || v === '') return 'must be a non-empty regular expression string';
  try {
    new RegExp(v);
    return null;
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message})`;
  }
};

function labelled(value: unknown, keys: { value: boolean }): boolean {
  if (!isPlainObject(value)) return false;
  const allowed = keys.value ? ['label', 'value', 'hint'] : ['label', 'hint'];
  return (
    Object.keys(value).every((key) => allowed.includes(key)) &&
    typeof value.label === 'string' &&
    value.label !== '' &&
    (!keys.value || (typeof value.value === 'string' && value.value !== '')) &&
    (value.hint === undefined || typeof value.hint === 'string')
  );
}

/** Radio/select options: `[{label, value, hint?}]` with non-empty label and value. */
export const choices: ParamCheck = (v) =>
  Array.isArray(v) && v.every((entry) => labelled(entry, { value: true }))
    ? null
    : 'must be an array of {label, value, hint?} with non-empty label and value';

/** A boolean radio: `{label, hint?}` with a non-empty label. */
export const radio: ParamCheck = (v) =>
  labelled(v, { value: false }) ? null : 'must be {label, hint?} with a non-empty label';

const HEX_COLOR = /^#([0-9a-f]{6}|[0-9a-f]{8})$/i;

export const hexColors: ParamCheck = (v) =>
  Array.isArray(v) && v.every((entry) => typeof entry === 'string' && HEX_COLOR.test(entry))
    ? null
    : 'must be an array of hex colors (#RRGGBB or #RRGGBBAA)';
