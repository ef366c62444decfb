import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { DomainError } from '../../errors.ts';
import { isIsoDate, isIsoDateTime } from '../../schema/field-types/iso-dates.ts';
import type { FieldType } from '../../schema/field-types/types.ts';
import { filterPatternProblem } from './filter-pattern.ts';

/**
 * The operators of `filter[fields]` (`GET /items`) as SQL over jsonb values (keyed by field
 * id; a localized value is `{locale: value}`): per field type those of the client's
 * ItemInstancesHrefSchema (the GraphQL filters' names in snake_case). Every argument is
 * checked here and sent as a parameter, never spliced into the statement. Records' values
 * and blocks' values (deep-filters.ts) are read the same way.
 */

export type Condition = RawBuilder<SqlBool>;

export function badFilter(message: string): DomainError {
  return new DomainError('INVALID_FILTER_FIELDS_PARAM', message);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ── Arguments: query strings carry text; each operator reads its argument's type. ──

export function text(arg: unknown, what: string): string {
  if (typeof arg !== 'string') throw badFilter(`${what} must be a string`);
  return arg;
}

export function bool(arg: unknown, what: string): boolean {
  if (arg === true || arg === 'true') return true;
  if (arg === false || arg === 'false') return false;
  throw badFilter(`${what} must be true or false`);
}

export function number(arg: unknown, what: string): number {
  const value = typeof arg === 'number' ? arg : typeof arg === 'string' ? Number(arg) : Number.NaN;
  if ((typeof arg === 'string' && arg.trim() === '') || !Number.isFinite(value))
    throw badFilter(`${what} must be a number`);
  return value;
}

/** A list: an array, or one comma-separated string. */
export function list(arg: unknown, what: string): string[] {
  const items = typeof arg === 'string' ? arg.split(',') : arg;
  if (!Array.isArray(items) || items.some((item) => typeof item !== 'string'))
    throw badFilter(`${what} must be a list of strings`);
  return (items as string[]).map((item) => item.trim()).filter((item) => item !== '');
}

function date(arg: unknown, what: string): string {
  if (!isIsoDate(arg)) throw badFilter(`${what} must be a date formatted YYYY-MM-DD`);
  return arg;
}

/** A date-time truncated to its minute, as DatoCMS compares them. */
function minute(arg: unknown, what: string): Date {
  if (!isIsoDateTime(arg)) throw badFilter(`${what} must be an ISO 8601 date-time`);
  const at = new Date(arg);
  if (Number.isNaN(at.getTime())) throw badFilter(`${what} must be an ISO 8601 date-time`);
  return new Date(at.getTime() - (at.getTime() % 60_000));
}

// ── Operands ──

/** A value as the operators see it: its jsonb and its text. */
export type Operand = { json: RawBuilder<unknown>; text: RawBuilder<unknown> };

/** A field's value (in `locale` when the field is localized) in jsonb values keyed by field id. */
export function valuesOperand(
  values: Expression<unknown>,
  field: { id: string; localized: boolean },
  locale: string,
): Operand {
  const path = field.localized ? [field.id, locale] : [field.id];
  return {
    json: sql`(${values} #> ${path})`,
    text: sql`(${values} #>> ${path})`,
  };
}

function present(json: RawBuilder<unknown>): Condition {
  return sql<SqlBool>`(coalesce(${json}, 'null'::jsonb) <> 'null'::jsonb)`;
}

export function not(condition: Condition): Condition {
  return sql<SqlBool>`(not coalesce(${condition}, false))`;
}

export function inList(expression: RawBuilder<unknown>, values: string[]): Condition {
  return values.length === 0
    ? sql<SqlBool>`false`
    : sql<SqlBool>`(${expression} in (${sql.join(values)}))`;
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `matches`: a regular expression (or, with `regexp: false`, a literal), case-insensitive
 * unless asked; only a pattern that runs in bounded time (filter-pattern.ts).
 */
export function matches(expression: RawBuilder<unknown>, arg: unknown, what: string): Condition {
  if (!isObject(arg)) throw badFilter(`${what} must be { pattern, case_sensitive?, regexp? }`);
  const pattern = text(arg.pattern, `${what}[pattern]`);
  const caseSensitive =
    arg.case_sensitive === undefined ? false : bool(arg.case_sensitive, `${what}[case_sensitive]`);
  const regexp = arg.regexp === undefined ? true : bool(arg.regexp, `${what}[regexp]`);
  const source = regexp ? pattern : escapeRegex(pattern);
  const problem = filterPatternProblem(pattern, { regexp });
  if (problem) throw badFilter(`${what}[pattern] ${problem}`);
  return caseSensitive
    ? sql<SqlBool>`(${expression} ~ ${source})`
    : sql<SqlBool>`(${expression} ~* ${source})`;
}

export type Operator = (operand: Operand, arg: unknown, what: string) => Condition;
export type Operators = Readonly<Record<string, Operator>>;

export const EXISTS: Operators = {
  exists: (v, arg, what) => (bool(arg, what) ? present(v.json) : not(present(v.json))),
};

/**
 * eq/neq/gt/lt/gte/lte of `typed(value)` against the argument as `argument` checks and
 * writes it. What `typed` writes is what a value index can hold (value-indexes.ts), so
 * it is written the same way there.
 */
function ordered(
  typed: (v: Operand) => RawBuilder<unknown>,
  argument: (arg: unknown, what: string) => RawBuilder<unknown>,
) {
  const compare =
    (op: string): Operator =>
    (v, arg, what) =>
      sql<SqlBool>`(${typed(v)} ${sql.raw(op)} ${argument(arg, what)})`;
  return {
    ...EXISTS,
    eq: compare('='),
    neq: (v, arg, what) => not(compare('=')(v, arg, what)),
    gt: compare('>'),
    lt: compare('<'),
    gte: compare('>='),
    lte: compare('<='),
  } satisfies Operators;
}

/** Numbers (integer, float, a record's position): the value's text cast to numeric. */
export const NUMBER_OPERATORS = ordered(
  (v) => sql`(${v.text})::numeric`,
  (arg, what) => sql`${number(arg, what)}::numeric`,
);

/**
 * Dates: every stored date is `YYYY-MM-DD` (checked on write, and what a date-time's
 * conversion keeps), whose byte order is the calendar's, so they compare as text in the
 * C collation: the same rows as a cast to date, in an expression an index can hold
 * (a cast of text to date depends on DateStyle, so PostgreSQL cannot index it).
 */
const DATE_OPERATORS = ordered(
  (v) => sql`(${v.text} COLLATE "C")`,
  (arg, what) => sql`${date(arg, what)}`,
);

/** Date-time operators: the argument is truncated to its minute; eq means within that minute. */
export function dateTimeOperators(typed: (v: Operand) => RawBuilder<unknown>): Operators {
  const compare =
    (op: string): Operator =>
    (v, arg, what) =>
      sql<SqlBool>`(${typed(v)} ${sql.raw(op)} ${minute(arg, what).toISOString()}::timestamptz)`;
  const within: Operator = (v, arg, what) => {
    const start = minute(arg, what);
    const end = new Date(start.getTime() + 60_000);
    return sql<SqlBool>`(${typed(v)} >= ${start.toISOString()}::timestamptz and ${typed(v)} < ${end.toISOString()}::timestamptz)`;
  };
  return {
    eq: within,
    neq: (v, arg, what) => not(within(v, arg, what)),
    gt: compare('>'),
    lt: compare('<'),
    gte: compare('>='),
    lte: compare('<='),
  };
}

export const EQUALITY: Operators = {
  eq: (v, arg, what) => sql<SqlBool>`(${v.text} = ${text(arg, what)})`,
  neq: (v, arg, what) => not(sql<SqlBool>`(${v.text} = ${text(arg, what)})`),
  in: (v, arg, what) => inList(v.text, list(arg, what)),
  not_in: (v, arg, what) => not(inList(v.text, list(arg, what))),
};

/** Ids compared as the GraphQL ItemId filter does (a record's `id`, a block's). */
export const ID_OPERATORS: Operators = {
  eq: EQUALITY.eq as Operator,
  neq: EQUALITY.neq as Operator,
  in: EQUALITY.in as Operator,
  notIn: EQUALITY.not_in as Operator,
};

const MATCHING: Operators = {
  matches: (v, arg, what) => matches(v.text, arg, what),
  not_matches: (v, arg, what) => not(matches(v.text, arg, what)),
  is_blank: (v, arg, what) =>
    bool(arg, what)
      ? sql<SqlBool>`(coalesce(${v.text}, '') = '')`
      : sql<SqlBool>`(coalesce(${v.text}, '') <> '')`,
  is_present: (v, arg, what) =>
    bool(arg, what)
      ? sql<SqlBool>`(coalesce(${v.text}, '') <> '')`
      : sql<SqlBool>`(coalesce(${v.text}, '') = '')`,
  ...EXISTS,
};

/** Operators on a set of ids held as a jsonb array of strings. */
function idSet(ids: (v: Operand) => RawBuilder<unknown>): Operators {
  const array = (values: string[]) => sql`array[${sql.join(values)}]::text[]`;
  const anyIn: Operator = (v, arg, what) => {
    const values = list(arg, what);
    return values.length === 0
      ? sql<SqlBool>`false`
      : sql<SqlBool>`(${ids(v)} ?| ${array(values)})`;
  };
  return {
    eq: (v, arg, what) => sql<SqlBool>`(${ids(v)} = ${JSON.stringify(list(arg, what))}::jsonb)`,
    any_in: anyIn,
    all_in: (v, arg, what) => {
      const values = list(arg, what);
      return values.length === 0
        ? sql<SqlBool>`true`
        : sql<SqlBool>`(${ids(v)} ?& ${array(values)})`;
    },
    not_in: (v, arg, what) => not(anyIn(v, arg, what)),
    exists: (v, arg, what) => {
      // A missing value is a JSON null, whose length cannot be asked: CASE keeps the order.
      const some = sql<SqlBool>`(case when jsonb_typeof(${ids(v)}) = 'array' then jsonb_array_length(${ids(v)}) > 0 else false end)`;
      return bool(arg, what) ? some : not(some);
    },
  };
}

/**
 * The text of a structured-text document: the values of its spans, space separated.
 * Path errors are silenced (the last argument): a missing value reads as no text.
 */
export const structuredText = (v: Operand) =>
  sql`(select string_agg(node #>> '{}', ' ') from jsonb_array_elements(jsonb_path_query_array(${v.json}, 'strict $.**.value', '{}', true)) as node)`;

/**
 * A structured-text value without content (`is_blank`): none, or a document of at most one
 * paragraph holding nothing but empty spans (what the editor leaves when emptied). A block,
 * a heading, a link or any text makes it present.
 */
function blankDocument(v: Operand): Condition {
  const content =
    '$.document ? (@.children.size() > 1 || exists(@.children[*] ? (@.type != "paragraph")) || exists(@.children[*].children[*] ? (@.type != "span" || @.value != "")))';
  return sql<SqlBool>`(coalesce(${v.json}, 'null'::jsonb) = 'null'::jsonb or not jsonb_path_exists(${v.json}, ${content}::jsonpath, '{}', true))`;
}

/** Distance in metres between a stored lat_lon and a point (haversine, mean Earth radius). */
export function near(v: Operand, arg: unknown, what: string): Condition {
  if (!isObject(arg)) throw badFilter(`${what} must be { latitude, longitude, radius }`);
  const latitude = number(arg.latitude, `${what}[latitude]`);
  const longitude = number(arg.longitude, `${what}[longitude]`);
  const radius = number(arg.radius, `${what}[radius]`);
  const lat = sql`radians((${v.json} ->> 'latitude')::float8)`;
  const lon = sql`radians((${v.json} ->> 'longitude')::float8)`;
  return sql<SqlBool>`(2 * 6371008.8 * asin(sqrt(
    power(sin((${lat} - radians(${latitude}::float8)) / 2), 2) +
    cos(radians(${latitude}::float8)) * cos(${lat}) *
    power(sin((${lon} - radians(${longitude}::float8)) / 2), 2)
  )) <= ${radius}::float8)`;
}

const uploadId = (v: Operand): Operand => ({
  json: sql`(${v.json} -> 'upload_id')`,
  text: sql`(${v.json} ->> 'upload_id')`,
});

/** The operators each field type accepts (rich_text and single_block: none). */
export const FIELD_OPERATORS: Readonly<Record<FieldType, Operators>> = {
  boolean: {
    eq: (v, arg, what) =>
      bool(arg, what)
        ? sql<SqlBool>`(${v.json} = 'true'::jsonb)`
        : not(sql<SqlBool>`(${v.json} = 'true'::jsonb)`),
  },
  integer: NUMBER_OPERATORS,
  float: NUMBER_OPERATORS,
  date: DATE_OPERATORS,
  date_time: { ...EXISTS, ...dateTimeOperators((v) => sql`(${v.text})::timestamptz`) },
  string: { ...EQUALITY, ...MATCHING },
  text: MATCHING,
  slug: EQUALITY,
  color: EXISTS,
  json: EXISTS,
  video: EXISTS,
  seo: EXISTS,
  lat_lon: { ...EXISTS, near },
  link: { ...EQUALITY, ...EXISTS },
  links: idSet((v) => v.json),
  file: Object.fromEntries(
    Object.entries({ ...EQUALITY, ...EXISTS }).map(([name, op]) => [
      name,
      ((v, arg, what) => op(name === 'exists' ? v : uploadId(v), arg, what)) as Operator,
    ]),
  ),
  gallery: idSet(
    (v) => sql`jsonb_path_query_array(${v.json}, 'strict $[*].upload_id', '{}', true)`,
  ),
  rich_text: {},
  single_block: {},
  structured_text: {
    matches: (v, arg, what) => matches(structuredText(v), arg, what),
    not_matches: (v, arg, what) => not(matches(structuredText(v), arg, what)),
    is_blank: (v, arg, what) => (bool(arg, what) ? blankDocument(v) : not(blankDocument(v))),
    is_present: (v, arg, what) => (bool(arg, what) ? not(blankDocument(v)) : blankDocument(v)),
    ...EXISTS,
  },
};

/**
 * The conditions of one filtered field: every operator given must hold. `path` is the
 * parameter naming the field (`filter[fields][title]`), which messages quote.
 */
export function fieldConditions(
  path: string,
  operators: Operators,
  given: unknown,
  operand: Operand,
): Condition[] {
  if (!isObject(given)) throw badFilter(`${path} must name operators, e.g. ${path}[eq]=…`);
  const entries = Object.entries(given);
  if (entries.length === 0) throw badFilter(`${path} names no operator`);
  return entries.map(([op, arg]) => {
    const operator = Object.hasOwn(operators, op) ? operators[op] : undefined;
    if (!operator) {
      const known = Object.keys(operators);
      throw badFilter(
        `${path} has no operator "${op}"; ${
          known.length ? `it accepts ${known.join(', ')}` : 'this field cannot be filtered'
        }`,
      );
    }
    return operator(operand, arg, `${path}[${op}]`);
  });
}
