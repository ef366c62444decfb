import { type Expression, type SqlBool, sql } from 'kysely';
import type { EnvQueryable, Scope } from '../../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import type { FieldType } from '../../schema/field-types/types.ts';
import { type FilterField, fieldsOfModels, type ItemField } from '../model-fields.ts';
import { fieldFilter, type ValuesReading } from './deep-filters.ts';
import { combinedConditions } from './filter-combinators.ts';
import {
  badFilter,
  bool,
  type Condition,
  dateTimeOperators,
  fieldConditions,
  ID_OPERATORS,
  inList,
  isObject,
  list,
  NUMBER_OPERATORS,
  not,
  type Operand,
  type Operator,
  type Operators,
  structuredText,
  text,
  valuesOperand,
} from './filter-operators.ts';
import { localesConditions } from './locales-filter.ts';
import { filterFieldsKept } from './schema-reads.ts';
import {
  ensureValueIndexes,
  type ValueIndex,
  type ValueIndexKind,
  type ValuesColumn,
} from './value-indexes.ts';

/**
 * `filter[fields]`, `filter[query]` and `filter[only_valid]` of `GET /items` as SQL over
 * the records' jsonb values, with the operators of filter-operators.ts, on the meta fields
 * and on the fields of the one model `filter[type]` names (reaching into blocks with
 * deep-filters.ts).
 */

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
  id: onOperand(column('id'), ID_OPERATORS),
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
    Object.fromEntries(Object.entries(NUMBER_OPERATORS).filter(([name]) => name !== 'exists')),
  ),
};

/** The values a filter reads: the current or the published ones. */
export type { ValuesColumn } from './value-indexes.ts';

const RANGE_OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte'];

/**
 * Per field type, the value index its filters can use (value-indexes.ts) and the operators
 * that compare the indexed expression (filter-operators.ts): text equality on strings,
 * slugs and links, comparisons on numbers and dates. A date-time is stored as sent (its
 * offset optional, read in the session's time zone when absent): no immutable expression
 * compares it as its filters do, so it has none.
 */
const INDEXED_FILTERS: Partial<
  Record<FieldType, { kind: ValueIndexKind; operators: readonly string[] }>
> = {
  string: { kind: 'text', operators: ['eq', 'in'] },
  slug: { kind: 'text', operators: ['eq', 'in'] },
  link: { kind: 'text', operators: ['eq', 'in'] },
  integer: { kind: 'numeric', operators: RANGE_OPERATORS },
  float: { kind: 'numeric', operators: RANGE_OPERATORS },
  date: { kind: 'date', operators: RANGE_OPERATORS },
};

/** The value index a record field's filter can use (value-indexes.ts), if any. */
function indexFor(
  model: ItemTypeRow,
  field: FilterField,
  given: unknown,
  input: FilterInput,
): ValueIndex[] {
  const indexed = INDEXED_FILTERS[field.field_type];
  const compared =
    indexed !== undefined &&
    isObject(given) &&
    indexed.operators.some((operator) => Object.hasOwn(given, operator));
  if (!compared) return [];
  const locale = field.localized ? input.locale : null;
  return [
    { modelId: model.id, fieldId: field.id, locale, column: input.column, kind: indexed.kind },
  ];
}

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
  return valuesOperand(sql.ref(input.column), field, input.locale);
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
 * The conditions `filter[fields]`, `filter[query]` and `filter[only_valid]` add, and whether
 * they run `matches` patterns. A regular expression is tried on the database first, so a
 * bad one is a clear error, not a failure.
 */
export async function filterConditions(
  scope: Scope,
  input: FilterInput,
): Promise<{ conditions: Expression<SqlBool>[]; runsPatterns: boolean }> {
  const db = scope.db;
  const conditions: Condition[] = [];
  const indexes: ValueIndex[] = [];
  let runsPatterns = false;
  if (input.onlyValid !== undefined && !['true', 'false'].includes(input.onlyValid))
    throw new DomainError('INVALID_PARAMS', 'filter[only_valid] must be true or false');
  if (input.onlyValid === 'true') conditions.push(sql<SqlBool>`current_valid`);
  if (input.fields !== undefined) {
    if (!isObject(input.fields))
      throw badFilter('filter[fields] must name fields, e.g. filter[fields][title][eq]=…');
    let fields: readonly FilterField[] | undefined;
    const reading: ValuesReading = {
      db,
      locale: input.locale,
      published: input.column === 'published_values',
    };
    // The record's values, named by table: a deep filter's subquery reads blocks' values too.
    const values = sql.ref(`items.${input.column}`);
    conditions.push(
      ...(await combinedConditions(
        'filter[fields]',
        input.fields,
        async (container, name, given) => {
          const path = `${container}[${name}]`;
          const meta = Object.hasOwn(META_FILTERS, name) ? META_FILTERS[name] : undefined;
          if (meta) return fieldConditions(path, meta, given, column('id'));
          const model = filteredModel(input, name);
          fields ??= await filterFieldsKept(scope, model.id);
          if (name === '_locales') return localesConditions(path, given, fields, values);
          const field = fields.find((candidate) => candidate.api_key === name);
          if (!field)
            throw badFilter(`${container} names "${name}", which is no field of the model`);
          const conditions = await fieldFilter(path, field, given, values, reading);
          indexes.push(...indexFor(model, field, given, input));
          return conditions;
        },
      )),
    );
    runsPatterns = (await checkRegexes(db, input.fields, 'filter[fields]')) > 0;
    // Only once the whole filter is known good: bad input changes nothing.
    await ensureValueIndexes(scope, indexes);
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
  return { conditions, runsPatterns };
}

/**
 * Tries each `matches` pattern (at any depth: deep filters and AND/OR lists hold them too) on
 * the database: a pattern it cannot compile is refused. Counts the patterns, literals too.
 */
async function checkRegexes(db: EnvQueryable, given: unknown, path: string): Promise<number> {
  let patterns = 0;
  const entries = Array.isArray(given)
    ? given.map((element, index) => [String(index), element] as const)
    : isObject(given)
      ? Object.entries(given)
      : [];
  for (const [key, arg] of entries) {
    const at = `${path}[${key}]`;
    const isPattern =
      (key === 'matches' || key === 'not_matches') &&
      isObject(arg) &&
      typeof arg.pattern === 'string';
    if (!isPattern) {
      patterns += await checkRegexes(db, arg, at);
      continue;
    }
    patterns += 1;
    if (arg.regexp === false || arg.regexp === 'false') continue;
    try {
      await sql`SELECT '' ~ ${arg.pattern}`.execute(db);
    } catch {
      throw badFilter(`${at}[pattern] is not a valid regular expression`);
    }
  }
  return patterns;
}
