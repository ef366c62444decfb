import { type Expression, type SqlBool, sql } from 'kysely';
import { MAX_LOCALES } from '../../limits.ts';
import type { ItemField } from '../model-fields.ts';
import {
  badFilter,
  type Condition,
  fieldConditions,
  list,
  not,
  type Operand,
  type Operators,
} from './filter-operators.ts';

/**
 * `_locales` (DatoCMS's LocalesFilter, Content Delivery API › Localization): records by the
 * locales they are in. A record is in a locale when one of its localized values holds that
 * locale's key, as `_locales` and the CMA's `meta.current_version_locales` read it
 * (locale-content.ts). `all_in`: in every locale named; `any_in`: in one at least;
 * `not_in`: in none.
 */

const NO_OPERAND: Operand = { json: sql`null`, text: sql`null` };

/** Whether the values hold a locale: some localized field's value has its key. */
function holds(
  values: Expression<unknown>,
  localized: readonly ItemField[],
  locale: string,
): Condition {
  if (localized.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`(${sql.join(
    localized.map((field) => sql`coalesce((${values} -> ${field.id}) ? ${locale}, false)`),
    sql` or `,
  )})`;
}

function localesOperators(values: Expression<unknown>, fields: readonly ItemField[]): Operators {
  const localized = fields.filter((field) => field.localized);
  // Each locale named costs a condition per localized field: a list is held to the
  // locales a site may have, as the delivery API's enum of site locales holds it.
  const each = (arg: unknown, what: string) => {
    const locales = [...new Set(list(arg, what))];
    if (locales.length > MAX_LOCALES)
      throw badFilter(`${what} names ${locales.length} locales; a site has at most ${MAX_LOCALES}`);
    return locales.map((locale) => holds(values, localized, locale));
  };
  const some = (arg: unknown, what: string) => {
    const conditions = each(arg, what);
    return conditions.length === 0
      ? sql<SqlBool>`false`
      : sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;
  };
  return {
    all_in: (_v, arg, what) => {
      const conditions = each(arg, what);
      return conditions.length === 0
        ? sql<SqlBool>`true`
        : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
    },
    any_in: (_v, arg, what) => some(arg, what),
    not_in: (_v, arg, what) => not(some(arg, what)),
  };
}

/** The conditions of `filter[fields][_locales]` on a model's records, read from `values`. */
export function localesConditions(
  path: string,
  given: unknown,
  fields: readonly ItemField[],
  values: Expression<unknown>,
): Condition[] {
  return fieldConditions(path, localesOperators(values, fields), given, NO_OPERAND);
}
