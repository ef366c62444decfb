import { type Expression, sql } from 'kysely';
import type { FilterField } from '../../domain/items/model-fields.ts';
import type { ValueIndex } from '../../domain/items/query/value-indexes.ts';
import { camelName } from '../schema/names.ts';

/**
 * An `orderBy` enum value's meaning: what to sort by, which way, and for a field's value
 * the value index (kind `json`) whose expression is this one, so a page can be read from
 * the index instead of sorting every record of the model.
 */
export type OrderRule = Readonly<{
  expression: Expression<unknown>;
  direction: 'asc' | 'desc';
  index: Omit<ValueIndex, 'modelId'> | null;
}>;

const META_COLUMNS: Readonly<Record<string, string>> = {
  _createdAt: 'created_at',
  id: 'id',
  _firstPublishedAt: 'first_published_at',
  _publicationScheduledAt: 'publication_scheduled_at',
  _unpublishingScheduledAt: 'unpublishing_scheduled_at',
  _publishedAt: 'published_at',
  _status: 'status',
  _updatedAt: 'updated_at',
  position: 'position',
};

/**
 * The SQL ordering of `orderBy` values (`title_ASC`): meta columns, or the value of a
 * field in the version served (a localized one in the query's locale), compared as jsonb
 * (numbers as numbers, strings as strings). PostgreSQL puts nulls last ascending, first
 * descending.
 */
export function orderRules(
  values: readonly string[],
  fields: readonly FilterField[],
  drafts: boolean,
  locale: string,
): OrderRule[] {
  const column = drafts ? sql.ref('item_values') : sql.ref('published_values');
  const byCamel = new Map(fields.map((field) => [camelName(field.api_key), field]));
  return values.map((value) => {
    const match = /^(.+)_(ASC|DESC)$/.exec(value);
    if (!match?.[1]) throw new Error(`orderBy value ${value} is not <field>_(ASC|DESC)`);
    const direction = match[2] === 'ASC' ? 'asc' : 'desc';
    const name = match[1];
    if (name === '_isValid')
      return {
        expression: drafts ? sql.ref('current_valid') : sql.ref('published_valid'),
        direction,
        index: null,
      };
    const meta = META_COLUMNS[name];
    if (meta !== undefined) return { expression: sql.ref(meta), direction, index: null };
    const field = byCamel.get(name);
    if (!field) throw new Error(`orderBy value ${value} names no field of the schema`);
    const path = field.localized ? [field.id, locale] : [field.id];
    return {
      expression: sql`(${column} #> ${path})`,
      direction,
      index: {
        fieldId: field.id,
        locale: field.localized ? locale : null,
        column: drafts ? 'item_values' : 'published_values',
        kind: 'json',
      },
    };
  });
}
