import { createHash } from 'node:crypto';

/**
 * What a value index is (value-indexes.ts) and its name, which is derived only from
 * that and parses back to the field and locale, so drops find an index by name alone.
 */

export type ValuesColumn = 'item_values' | 'published_values';

/**
 * The expression an index holds, each what one kind of statement compares:
 * - `text`: `values #>> path`: text equality (`eq`, `in` on string, slug and link fields);
 * - `json`: `values #> path`: an order by a field's value;
 * - `numeric`: `(values #>> path)::numeric`: integer and float comparisons;
 * - `date`: `(values #>> path) COLLATE "C"`: date comparisons (filter-operators.ts).
 */
export type ValueIndexKind = 'text' | 'json' | 'numeric' | 'date';

export type ValueIndex = Readonly<{
  modelId: string;
  fieldId: string;
  /** The field's locale when it is localized, else null. */
  locale: string | null;
  column: ValuesColumn;
  kind: ValueIndexKind;
}>;

const KIND_LETTER: Readonly<Record<ValueIndexKind, string>> = {
  text: 't',
  json: 'j',
  numeric: 'n',
  date: 'd',
};
const COLUMN_LETTER: Readonly<Record<ValuesColumn, string>> = {
  item_values: 'c',
  published_values: 'p',
};
// PostgreSQL truncates longer identifiers, and two truncated names could then collide.
const MAX_NAME_LENGTH = 63;

export const NAME_PREFIX = 'iv_';
/** The table value indexes are on, as the catalog names it (a parameter, not SQL text). */
export const INDEXED_TABLE = 'items';
// Neither an id (base64url or decimal) nor a locale code holds it: a name parses back.
const LOCALE_SEPARATOR = '@';

/** A locale as a name holds it: itself, or a hash when the name would be too long. */
export function localePart(locale: string): string {
  return locale.length <= MAX_NAME_LENGTH - 40
    ? locale
    : createHash('sha1').update(locale).digest('hex').slice(0, 16);
}

/**
 * The index's name: `iv_`, kind and column letters, `_`, the field id, then `@` and the
 * locale when localized.
 */
export function valueIndexName(index: Omit<ValueIndex, 'modelId'>): string {
  const stem = `${NAME_PREFIX}${KIND_LETTER[index.kind]}${COLUMN_LETTER[index.column]}_${index.fieldId}`;
  return index.locale === null ? stem : `${stem}${LOCALE_SEPARATOR}${localePart(index.locale)}`;
}

/** The field a value index name holds (after `iv_` and two letters), and its locale part. */
export function partsOfName(name: string): { fieldId: string; locale: string | null } {
  const [fieldId = '', locale] = name.slice(NAME_PREFIX.length + 3).split(LOCALE_SEPARATOR);
  return { fieldId, locale: locale ?? null };
}
