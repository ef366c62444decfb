import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { DomainError } from '../errors.ts';
import { badFilter, isObject, list, number, text } from '../items/query/filter-operators.ts';

/**
 * `filter[fields]` of `GET /uploads`: the GraphQL upload filters with snake_case field
 * names, operators in either case (`not_in` or `notIn`). Each argument is checked and
 * sent as a parameter. An unknown field or operator is refused, never ignored.
 */

type Column = RawBuilder<unknown>;
type Kind = 'text' | 'number' | 'date' | 'tags' | 'reference';

/** A reference is an id: compared whole, never ordered or matched as text. */
const REFERENCE_OPERATORS = new Set(['eq', 'neq', 'in', 'not_in', 'exists']);

const FILENAME = sql`regexp_replace(path, '^.*/[0-9]+-', '')`;

const FIELDS: Record<string, { column: Column; kind: Kind }> = {
  id: { column: sql`id`, kind: 'text' },
  md5: { column: sql`md5`, kind: 'text' },
  mime_type: { column: sql`mime_type`, kind: 'text' },
  format: { column: sql`format`, kind: 'text' },
  filename: { column: FILENAME, kind: 'text' },
  basename: { column: sql`regexp_replace(${FILENAME}, '\\.[^.]*$', '')`, kind: 'text' },
  author: { column: sql`author`, kind: 'text' },
  copyright: { column: sql`copyright`, kind: 'text' },
  notes: { column: sql`notes`, kind: 'text' },
  size: { column: sql`size`, kind: 'number' },
  width: { column: sql`width`, kind: 'number' },
  height: { column: sql`height`, kind: 'number' },
  resolution: { column: sql`(width::bigint * height)`, kind: 'number' },
  _created_at: { column: sql`created_at`, kind: 'date' },
  _updated_at: { column: sql`updated_at`, kind: 'date' },
  tags: { column: sql`tags`, kind: 'tags' },
  smart_tags: { column: sql`smart_tags`, kind: 'tags' },
  // The collection the upload is directly in (not those above it); `exists: false`
  // selects the uploads in no collection.
  upload_collection: { column: sql`upload_collection_id`, kind: 'reference' },
};

/** `notIn` → `not_in`. */
function snake(operator: string): string {
  return operator.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function scalar(kind: Kind, arg: unknown, what: string): unknown {
  if (kind === 'number') return number(arg, what);
  if (kind === 'date') {
    const at = new Date(text(arg, what));
    if (Number.isNaN(at.getTime())) throw badFilter(`${what} must be an ISO 8601 date-time`);
    return at;
  }
  return text(arg, what);
}

function tagCondition(column: Column, operator: string, arg: unknown, what: string) {
  const tags = (values: string[]) => sql`${JSON.stringify(values)}::jsonb`;
  switch (operator) {
    case 'contains':
      return sql<SqlBool>`${column} @> ${tags([text(arg, what)])}`;
    case 'all_in':
      return sql<SqlBool>`${column} @> ${tags(list(arg, what))}`;
    case 'any_in':
      return sql<SqlBool>`${column} ?| ${list(arg, what)}::text[]`;
    case 'not_in':
      return sql<SqlBool>`NOT (${column} ?| ${list(arg, what)}::text[])`;
    default:
      throw badFilter(`${what}: unknown operator`);
  }
}

function condition(field: string, operator: string, arg: unknown): RawBuilder<SqlBool> {
  const spec = FIELDS[field];
  if (!spec) throw badFilter(`filter[fields][${field}]: uploads have no such field`);
  const { column, kind } = spec;
  const what = `filter[fields][${field}][${operator}]`;
  if (kind === 'tags') return tagCondition(column, operator, arg, what);
  if (kind === 'reference' && !REFERENCE_OPERATORS.has(operator)) {
    throw badFilter(`${what}: unknown operator`);
  }
  switch (operator) {
    case 'eq':
      return sql<SqlBool>`${column} = ${scalar(kind, arg, what)}`;
    case 'neq':
      return sql<SqlBool>`${column} IS DISTINCT FROM ${scalar(kind, arg, what)}`;
    case 'in':
    case 'not_in': {
      const values = list(arg, what).map((v) => scalar(kind, v, what));
      if (values.length === 0) return operator === 'in' ? sql<SqlBool>`false` : sql<SqlBool>`true`;
      const any = sql<SqlBool>`${column} IN (${sql.join(values)})`;
      return operator === 'in' ? any : sql<SqlBool>`NOT coalesce(${any}, false)`;
    }
    case 'gt':
      return sql<SqlBool>`${column} > ${scalar(kind, arg, what)}`;
    case 'gte':
      return sql<SqlBool>`${column} >= ${scalar(kind, arg, what)}`;
    case 'lt':
      return sql<SqlBool>`${column} < ${scalar(kind, arg, what)}`;
    case 'lte':
      return sql<SqlBool>`${column} <= ${scalar(kind, arg, what)}`;
    case 'exists':
      return arg === true || arg === 'true'
        ? sql<SqlBool>`${column} IS NOT NULL`
        : sql<SqlBool>`${column} IS NULL`;
    case 'matches':
    case 'not_matches':
      return patternCondition(column, operator, arg, what);
    default:
      throw badFilter(`${what}: unknown operator`);
  }
}

/** `{pattern, case_sensitive?}`: a substring match (the pattern's text is literal). */
function patternCondition(column: Column, operator: string, arg: unknown, what: string) {
  if (!isObject(arg)) throw badFilter(`${what} must be {pattern, case_sensitive}`);
  const pattern = text(arg.pattern, `${what}[pattern]`);
  const sensitive = arg.case_sensitive === true || arg.case_sensitive === 'true';
  const like = `%${pattern.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matched = sensitive
    ? sql<SqlBool>`${column} LIKE ${like}`
    : sql<SqlBool>`${column} ILIKE ${like}`;
  return operator === 'matches' ? matched : sql<SqlBool>`NOT coalesce(${matched}, false)`;
}

/** Every condition of a `filter[fields]` object, all of which must hold. */
export function uploadFieldConditions(fields: unknown): RawBuilder<SqlBool>[] {
  if (fields === undefined) return [];
  if (!isObject(fields)) throw badFilter('filter[fields] must be an object');
  const conditions: RawBuilder<SqlBool>[] = [];
  for (const [field, operators] of Object.entries(fields)) {
    if (!isObject(operators)) throw badFilter(`filter[fields][${field}] must name operators`);
    for (const [operator, arg] of Object.entries(operators)) {
      conditions.push(condition(field, snake(operator), arg));
    }
  }
  return conditions;
}

/** `filter[query]`: a case-insensitive substring of the file name, texts or tags. */
export function uploadQueryCondition(query: string, locale: string): RawBuilder<SqlBool> {
  const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`(
    ${FILENAME} ILIKE ${like} OR notes ILIKE ${like} OR author ILIKE ${like}
    OR copyright ILIKE ${like} OR tags::text ILIKE ${like}
    OR default_field_metadata->'alt'->>${locale} ILIKE ${like}
    OR default_field_metadata->'title'->>${locale} ILIKE ${like}
  )`;
}

const ORDERABLE: Record<string, Column> = {
  _created_at: sql`created_at`,
  _updated_at: sql`updated_at`,
  size: sql`size`,
  resolution: FIELDS.resolution?.column ?? sql`0`,
  filename: FILENAME,
  basename: FIELDS.basename?.column ?? FILENAME,
  mime_type: sql`mime_type`,
  format: sql`format`,
  id: sql`id`,
};

/** `order_by=_created_at_DESC,size_ASC`; the default is newest first; `id` breaks ties. */
export function uploadOrdering(orderBy: string | undefined): RawBuilder<unknown> {
  const rules = (orderBy ?? '_created_at_DESC').split(',').map((rule) => {
    const match = /^(.+)_(ASC|DESC)$/.exec(rule.trim());
    const column = match ? ORDERABLE[match[1] as string] : undefined;
    if (!match || !column) {
      throw new DomainError(
        'INVALID_ORDERING',
        `order_by: "${rule}" is not <field>_ASC or <field>_DESC of ${Object.keys(ORDERABLE).join(', ')}`,
      );
    }
    return sql`${column} ${sql.raw(match[2] === 'ASC' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`;
  });
  return sql.join([...rules, sql`id ASC`]);
}
