import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { isIsoDate, isIsoDateTime } from '../fields/field-types/iso-dates.ts';
import type { FieldType } from '../fields/field-types/types.ts';
import { fieldsOfModel, fieldsOfModels, type ItemField } from './model-fields.ts';

/**
 * `filter[fields]`, `filter[query]` and `filter[only_valid]` of `GET /items` as SQL over
 * the jsonb values (keyed by field id; a localized value is `{locale: value}`). Operators
 * per field type are those of the client's ItemInstancesHrefSchema (the GraphQL
 * filters' names in snake_case); every argument is checked here and sent as a
 * parameter, never spliced into the statement.
 */

type Condition = RawBuilder<SqlBool>;
/** The values a filter reads: the current or the published ones. */
export type ValuesColumn = 'item_values' | 'published_values';

function badFilter(message: string): DomainError {
  return new DomainError('INVALID_FILTER_FIELDS_PARAM', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ── Arguments: query strings carry text; each operator reads its argument's type. ──

function text(arg: unknown, what: string): string {
  if (typeof arg !== 'string') throw badFilter(`${what} must be a string`);
  return arg;
}

function bool(arg: unknown, what: string): boolean {
  if (arg === true || arg === 'true') return true;
  if (arg === false || arg === 'false') return false;
  throw badFilter(`${what} must be true or false`);
}

function number(arg: unknown, what: string): number {
  const value = typeof arg === 'number' ? arg : typeof arg === 'string' ? Number(arg) : Number.NaN;
  if ((typeof arg === 'string' && arg.trim() === '') || !Number.isFinite(value))
    throw badFilter(`${what} must be a number`);
  return value;
}

/** A list: an array, or one comma-separated string. */
function list(arg: unknown, what: string): string[] {
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
type Operand = { json: RawBuilder<unknown>; text: RawBuilder<unknown> };

function jsonOperand(column: ValuesColumn, path: readonly string[]): Operand {
  return {
    json: sql`(${sql.ref(column)} #> ${path})`,
    text: sql`(${sql.ref(column)} #>> ${path})`,
  };
}

function present(json: RawBuilder<unknown>): Condition {
  return sql<SqlBool>`(coalesce(${json}, 'null'::jsonb) <> 'null'::jsonb)`;
}

function not(condition: Condition): Condition {
  return sql<SqlBool>`(not coalesce(${condition}, false))`;
}

function inList(expression: RawBuilder<unknown>, values: string[]): Condition {
  return values.length === 0
    ? sql<SqlBool>`false`
    : sql<SqlBool>`(${expression} in (${sql.join(values)}))`;
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `matches`: a regular expression (or, with `regexp: false`, a literal), case-insensitive unless asked. */
function matches(expression: RawBuilder<unknown>, arg: unknown, what: string): Condition {
  if (!isObject(arg)) throw badFilter(`${what} must be { pattern, case_sensitive?, regexp? }`);
  const pattern = text(arg.pattern, `${what}[pattern]`);
  const caseSensitive =
    arg.case_sensitive === undefined ? false : bool(arg.case_sensitive, `${what}[case_sensitive]`);
  const regexp = arg.regexp === undefined ? true : bool(arg.regexp, `${what}[regexp]`);
  const source = regexp ? pattern : escapeRegex(pattern);
  return caseSensitive
    ? sql<SqlBool>`(${expression} ~ ${source})`
    : sql<SqlBool>`(${expression} ~* ${source})`;
}

type Operator = (operand: Operand, arg: unknown, what: string) => Condition;
type Operators = Readonly<Record<string, Operator>>;

const EXISTS: Operators = {
  exists: (v, arg, what) => (bool(arg, what) ? present(v.json) : not(present(v.json))),
};

/** eq/neq/gt/lt/gte/lte on a cast of the text; `parse` checks and converts the argument. */
function ordered(cast: 'numeric' | 'date', parse: (arg: unknown, what: string) => unknown) {
  const typed = (v: Operand) => sql`(${v.text})::${sql.raw(cast)}`;
  const compare =
    (op: string): Operator =>
    (v, arg, what) =>
      sql<SqlBool>`(${typed(v)} ${sql.raw(op)} ${parse(arg, what)}::${sql.raw(cast)})`;
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

/** Date-time operators: the argument is truncated to its minute; eq means within that minute. */
function dateTimeOperators(typed: (v: Operand) => RawBuilder<unknown>): Operators {
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

const EQUALITY: Operators = {
  eq: (v, arg, what) => sql<SqlBool>`(${v.text} = ${text(arg, what)})`,
  neq: (v, arg, what) => not(sql<SqlBool>`(${v.text} = ${text(arg, what)})`),
  in: (v, arg, what) => inList(v.text, list(arg, what)),
  not_in: (v, arg, what) => not(inList(v.text, list(arg, what))),
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
const structuredText = (v: Operand) =>
  sql`(select string_agg(node #>> '{}', ' ') from jsonb_array_elements(jsonb_path_query_array(${v.json}, 'strict $.**.value', '{}', true)) as node)`;

/** Distance in metres between a stored lat_lon and a point (haversine, mean Earth radius). */
function near(v: Operand, arg: unknown, what: string): Condition {
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
const FIELD_OPERATORS: Readonly<Record<FieldType, Operators>> = {
  boolean: {
    eq: (v, arg, what) =>
      bool(arg, what)
        ? sql<SqlBool>`(${v.json} = 'true'::jsonb)`
        : not(sql<SqlBool>`(${v.json} = 'true'::jsonb)`),
  },
  integer: ordered('numeric', number),
  float: ordered('numeric', number),
  date: ordered('date', date),
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
  },
};

// ── Meta fields (usable with any filter[type] or filter[ids]) ──

const column = (name: string): Operand => ({ json: sql`null`, text: sql.ref(name) });
/** Schedules are not stored: every record has none. */
const NO_SCHEDULE: Operand = { json: sql`null`, text: sql`null::timestamptz` };
const STATUSES = ['draft', 'updated', 'published'];

function status(arg: unknown, what: string): string {
  const value = text(arg, what);
  if (!STATUSES.includes(value)) throw badFilter(`${what} must be one of ${STATUSES.join(', ')}`);
  return value;
}

function columnTimes(operand: Operand): Operators {
  const operators = dateTimeOperators((v) => v.text);
  return {
    ...Object.fromEntries(
      Object.entries(operators).map(([name, op]) => [
        name,
        ((_v, arg, what) => op(operand, arg, what)) as Operator,
      ]),
    ),
    exists: (_v, arg, what) =>
      bool(arg, what)
        ? sql<SqlBool>`(${operand.text} is not null)`
        : sql<SqlBool>`(${operand.text} is null)`,
  };
}

function onOperand(operand: Operand, operators: Operators): Operators {
  return Object.fromEntries(
    Object.entries(operators).map(([name, op]) => [
      name,
      ((_v, arg, what) => op(operand, arg, what)) as Operator,
    ]),
  );
}

const META_FILTERS: Readonly<Record<string, Operators>> = {
  id: onOperand(column('id'), {
    eq: EQUALITY.eq as Operator,
    neq: EQUALITY.neq as Operator,
    in: EQUALITY.in as Operator,
    notIn: EQUALITY.not_in as Operator,
  }),
  _status: onOperand(column('status'), {
    eq: (v, arg, what) => sql<SqlBool>`(${v.text} = ${status(arg, what)})`,
    neq: (v, arg, what) => sql<SqlBool>`(${v.text} <> ${status(arg, what)})`,
    in: (v, arg, what) =>
      inList(
        v.text,
        list(arg, what).map((value) => status(value, what)),
      ),
    notIn: (v, arg, what) =>
      not(
        inList(
          v.text,
          list(arg, what).map((value) => status(value, what)),
        ),
      ),
  }),
  _created_at: columnTimes(column('created_at')),
  _updated_at: columnTimes(column('updated_at')),
  _published_at: columnTimes(column('published_at')),
  _first_published_at: columnTimes(column('first_published_at')),
  _publication_scheduled_at: columnTimes(NO_SCHEDULE),
  _unpublishing_scheduled_at: columnTimes(NO_SCHEDULE),
  // Whether the current values satisfy the schema as it is now (meta.is_valid).
  _is_valid: {
    eq: (_v, arg, what) => sql<SqlBool>`(current_valid = ${bool(arg, what)})`,
  },
  parent_id: onOperand(column('parent_id'), {
    eq: (v, arg, what) => sql<SqlBool>`(${v.text} = ${text(arg, what)})`,
    exists: (v, arg, what) =>
      bool(arg, what) ? sql<SqlBool>`(${v.text} is not null)` : sql<SqlBool>`(${v.text} is null)`,
  }),
  position: onOperand(
    { json: sql`null`, text: sql`position::text` },
    Object.fromEntries(
      Object.entries(ordered('numeric', number)).filter(([name]) => name !== 'exists'),
    ),
  ),
};

export type FilterInput = {
  /** `filter[fields]` as the query parser left it. */
  fields: unknown;
  /** `filter[query]`. */
  query: string | undefined;
  /** `filter[only_valid]`. */
  onlyValid: string | undefined;
  /** The models `filter[type]` named (empty without it). */
  models: readonly ItemTypeRow[];
  /** `locale`, else the environment's main locale: which value of a localized field is read. */
  locale: string;
  column: ValuesColumn;
};

type FieldsByModel = ReadonlyMap<string, readonly ItemField[]>;

/** The conditions of one filtered field: every operator given must hold. */
function fieldConditions(
  name: string,
  operators: Operators,
  given: unknown,
  operand: Operand,
): Condition[] {
  if (!isObject(given))
    throw badFilter(`filter[fields][${name}] must name operators, e.g. [${name}][eq]=…`);
  const entries = Object.entries(given);
  if (entries.length === 0) throw badFilter(`filter[fields][${name}] names no operator`);
  return entries.map(([op, arg]) => {
    const operator = Object.hasOwn(operators, op) ? operators[op] : undefined;
    if (!operator) {
      const known = Object.keys(operators);
      throw badFilter(
        `filter[fields][${name}] has no operator "${op}"; ${
          known.length ? `it accepts ${known.join(', ')}` : 'this field cannot be filtered'
        }`,
      );
    }
    return operator(operand, arg, `filter[fields][${name}][${op}]`);
  });
}

/** The one model model-specific filters may name. */
function filteredModel(input: FilterInput, name: string): ItemTypeRow {
  const [model, ...others] = input.models;
  if (!model || others.length > 0)
    throw badFilter(
      `filter[fields][${name}] is a field of a model: filter[type] must name exactly one model`,
    );
  if (model.modular_block)
    throw badFilter(`filter[fields][${name}]: fields of a block model cannot be filtered`);
  return model;
}

function fieldOperand(field: ItemField, input: FilterInput): Operand {
  return jsonOperand(input.column, field.localized ? [field.id, input.locale] : [field.id]);
}

/** The field types `filter[query]` searches. */
const SEARCHED: ReadonlySet<FieldType> = new Set(['string', 'text', 'slug', 'structured_text']);

const escapeLike = (value: string) => value.replace(/[\\%_]/g, '\\$&');

/**
 * `filter[query]`: records (of the named models, else of every model) in whose text
 * values (string, text, slug, structured text; in the locale) every word of the query
 * appears, case-insensitively.
 */
function queryCondition(
  input: FilterInput,
  query: string,
  models: readonly ItemTypeRow[],
  fieldsByModel: FieldsByModel,
): Condition {
  const words = query.split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return sql<SqlBool>`true`;
  const perModel = models.flatMap((model) => {
    if (model.modular_block) return [];
    const texts = (fieldsByModel.get(model.id) ?? [])
      .filter((field) => SEARCHED.has(field.field_type))
      .map((field) => {
        const operand = fieldOperand(field, input);
        return field.field_type === 'structured_text' ? structuredText(operand) : operand.text;
      });
    if (texts.length === 0) return [];
    const everyWord = words.map(
      (word) =>
        sql<SqlBool>`(${sql.join(
          texts.map((value) => sql`coalesce(${value}, '') ilike ${`%${escapeLike(word)}%`}`),
          sql` or `,
        )})`,
    );
    return [sql<SqlBool>`(item_type_id = ${model.id} and ${sql.join(everyWord, sql` and `)})`];
  });
  return perModel.length === 0
    ? sql<SqlBool>`false`
    : sql<SqlBool>`(${sql.join(perModel, sql` or `)})`;
}

/**
 * The conditions `filter[fields]`, `filter[query]` and `filter[only_valid]` add. A regular
 * expression is tried on the database first, so a bad one is a clear error, not a failure.
 */
export async function filterConditions(
  db: EnvQueryable,
  input: FilterInput,
): Promise<Expression<SqlBool>[]> {
  const conditions: Condition[] = [];
  if (input.onlyValid !== undefined && !['true', 'false'].includes(input.onlyValid))
    throw new DomainError('INVALID_PARAMS', 'filter[only_valid] must be true or false');
  if (input.onlyValid === 'true') conditions.push(sql<SqlBool>`current_valid`);
  if (input.fields !== undefined) {
    if (!isObject(input.fields))
      throw badFilter('filter[fields] must name fields, e.g. filter[fields][title][eq]=…');
    let fields: readonly ItemField[] | undefined;
    for (const [name, given] of Object.entries(input.fields)) {
      const meta = Object.hasOwn(META_FILTERS, name) ? META_FILTERS[name] : undefined;
      if (meta) {
        conditions.push(...fieldConditions(name, meta, given, column('id')));
        continue;
      }
      const model = filteredModel(input, name);
      fields ??= await fieldsOfModel(db, model.id);
      const field = fields.find((candidate) => candidate.api_key === name);
      if (!field) throw badFilter(`filter[fields] names "${name}", which is no field of the model`);
      conditions.push(
        ...fieldConditions(
          name,
          FIELD_OPERATORS[field.field_type],
          given,
          fieldOperand(field, input),
        ),
      );
    }
    await checkRegexes(db, input.fields);
  }
  if (input.query !== undefined) {
    const models =
      input.models.length > 0
        ? input.models
        : await db.selectFrom('item_types').selectAll().execute();
    const fieldsByModel = await fieldsOfModels(
      db,
      models.map((model) => model.id),
    );
    conditions.push(queryCondition(input, input.query, models, fieldsByModel));
  }
  return conditions;
}

/** Tries each `matches` pattern on the database: a pattern it cannot compile is refused. */
async function checkRegexes(db: EnvQueryable, fields: Record<string, unknown>): Promise<void> {
  for (const [name, given] of Object.entries(fields)) {
    if (!isObject(given)) continue;
    for (const op of ['matches', 'not_matches']) {
      const arg = given[op];
      if (!isObject(arg) || typeof arg.pattern !== 'string') continue;
      if (arg.regexp === false || arg.regexp === 'false') continue;
      try {
        await sql`SELECT '' ~ ${arg.pattern}`.execute(db);
      } catch {
        throw badFilter(
          `filter[fields][${name}][${op}][pattern] is not a valid regular expression`,
        );
      }
    }
  }
}
