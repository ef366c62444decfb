import { sql } from 'kysely';
import type { EnvTrx } from '../../db/environment-scope.ts';

/**
 * Gives every localized field's default value exactly these locales: kept locales
 * keep their value, new ones get null, removed ones are dropped. One statement, so
 * the cost does not grow with round trips as the schema grows. `->` yields SQL NULL
 * (stored as JSON null) for a missing key or a value that is not an object.
 */
export async function rewriteLocalizedDefaults(trx: EnvTrx, locales: string[]): Promise<void> {
  await trx
    .updateTable('fields')
    .set({
      default_value: sql<string>`(
        SELECT jsonb_object_agg(locale, default_value -> locale)
        FROM jsonb_array_elements_text(${JSON.stringify(locales)}::jsonb) AS locale
      )`,
    })
    .where('localized', '=', true)
    .execute();
}
