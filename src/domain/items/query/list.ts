import {
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { EnvQueryable, Scope } from '../../../db/environment-scope.ts';
import { anyText } from '../../../db/query/any-text.ts';
import { selectRowsAsJson } from '../../../db/query/json-rows.ts';
import {
  type EnvironmentDatabase,
  ITEM_TIMESTAMP_COLUMNS,
  type ItemTypeRow,
} from '../../../db/schema.ts';
import { cachedListRead, rowsAtStamps, viewedOnce } from '../../caches/caches.ts';
import { DomainError } from '../../errors.ts';
import { type AdmitRead, checkPageBytes } from '../../page-bytes.ts';
import type { ItemsWhere } from '../access/readable-records.ts';
import { valuesToShow } from '../blocks/block-snapshots.ts';
import { type RecordView, recordView, withTreeMeta } from '../record-view.ts';
import { filterConditions } from './list-filters.ts';
import { boundedPatternRun } from './pattern-statements.ts';
import { fieldsOfModelsKept, localesOf, modelsNamed } from './schema-reads.ts';
import { ensureValueIndexes, type ValueIndex } from './value-indexes.ts';

export const DEFAULT_PAGE_LIMIT = 30;
export const MAX_PAGE_LIMIT = 500;

export type ItemListQuery = {
  /** Model ids or api_keys, comma separated. */
  type?: string;
  /** Record ids, comma separated. */
  ids?: string;
  /** `filter[fields]`, `filter[query]`, `filter[only_valid]`: see list-filters.ts. */
  fields?: unknown;
  query?: string;
  onlyValid?: string;
  orderBy?: string;
  /** `current` (default) or `published`. */
  version?: string;
  locale?: string;
  /** `?nested=true`: blocks presented whole instead of by id. */
  nested?: boolean;
  offset?: number;
  limit?: number;
};

/** `field`: the parameter refused, when one is (as the edge names a parameter it refuses). */
function invalidParams(message: string, field?: string): DomainError {
  return new DomainError('INVALID_PARAMS', message, field === undefined ? undefined : { field });
}

function commaList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Meta columns `order_by` may name (the client's ItemInstancesHrefSchema lists them). */
const META_ORDER: Readonly<Record<string, string>> = {
  id: 'id',
  _created_at: 'created_at',
  _updated_at: 'updated_at',
  _status: 'status',
  _published_at: 'published_at',
  _first_published_at: 'first_published_at',
  _is_valid: 'current_valid',
  position: 'position',
};

/** The columns a listed record is presented from, besides its values. */
const PRESENTED_COLUMNS = [
  'id',
  'item_type_id',
  'creator_id',
  'status',
  'current_version_id',
  'published_version_id',
  'parent_id',
  'position',
  ...ITEM_TIMESTAMP_COLUMNS,
  'current_valid',
  'published_valid',
  'stage',
] as const;

type ItemsWhereOf = (eb: ExpressionBuilder<EnvironmentDatabase, 'items'>) => Expression<SqlBool>;

/** What the page statement gives of each page record, in page order. */
type PageEntry = {
  id: string;
  /** The version of the record's row the page saw (environment migration 0020). */
  stamp: string;
  total: string;
  bytes: number | string | null;
  block_bytes?: string | null;
};

/**
 * The one statement that reads every matching record: the page's ids in order, the total
 * (`count(*) over ()`, so the filter is scanned once; or the kept counts, `counts`), and
 * each page record's size, the column the database keeps with each write (environment
 * migration 0019): its values as JSON text, the published ones when asked (which hold
 * their blocks inline), and the stamp of the version it saw (pageRecords). The page's
 * order is a bounded sort (top-N) of the matches. Read nested, the page's current blocks
 * are summed too, on the page's rows only.
 */
function pageStatement(
  db: EnvQueryable,
  page: {
    where: ItemsWhereOf;
    order: readonly OrderRule[];
    limit: number;
    offset: number;
    read: { version: string; nested: boolean };
    counts: RawBuilder<string> | null;
  },
): Promise<PageEntry[]> {
  const bytes = page.read.version === 'published' ? 'published_bytes' : 'values_bytes';
  const withBlocks = page.read.nested && page.read.version === 'current';
  // The matching records, with their sort keys, size and the total. A subquery holding a
  // window function is planned on its own, for all its rows: the count reads every match
  // anyway, so the planner reads them the cheapest way (a value index, README.md). Written
  // in one statement with the page's ORDER BY … LIMIT, PostgreSQL 15 costs the count as if
  // it stopped after the page and walks every record of the model in `seq` order instead.
  // Without the window (the kept counts) the planner merges the two: the page can stop early.
  const sortKey = (index: number) => sql.ref(`matching.k${index}`);
  const matching = db
    .selectFrom('items')
    .select(['id', 'seq', `${bytes} as bytes`, sql<string>`stamp::text`.as('stamp')])
    .select(page.order.map((rule, index) => sql`${rule.expression}`.as(`k${index}`)))
    .select((page.counts ?? sql<string>`count(*) over ()`).as('total'))
    .where(page.where)
    .as('matching');
  const keys = sql.join([
    ...page.order.map((rule, index) => sql`${sortKey(index)} ${sql.raw(rule.direction)}`),
    sql`matching.seq`,
  ]);
  let chosen = db
    .selectFrom(matching)
    .select(['matching.id', 'matching.stamp', 'matching.total', 'matching.bytes'])
    // The page's order, kept for the outer statement that sums blocks.
    .$if(withBlocks, (query) =>
      query.select(sql<string>`row_number() over (order by ${keys})`.as('n')),
    );
  for (const [index, rule] of page.order.entries())
    chosen = chosen.orderBy(sortKey(index), rule.direction);
  chosen = chosen.orderBy('matching.seq').limit(page.limit).offset(page.offset);
  if (!withBlocks) return chosen.execute() as Promise<PageEntry[]>;
  return db
    .selectFrom(chosen.as('page'))
    .select(['page.id', 'page.stamp', 'page.total', 'page.bytes'])
    .select((eb) =>
      eb
        .selectFrom('blocks')
        .select((inner) =>
          inner.fn.coalesce(inner.fn.sum<string>('blocks.values_bytes'), sql<string>`0`).as('sum'),
        )
        .whereRef('blocks.item_id', '=', 'page.id')
        .as('block_bytes'),
    )
    .orderBy('page.n')
    .execute() as Promise<PageEntry[]>;
}

/**
 * The page's records, in page order, with the one values column the page presents (the
 * published ones under `item_values` when asked). A record whose row is kept at the stamp
 * the page statement saw is that very row, which matched (caches.ts rowsAtStamps): only
 * the others are read, and their page's conditions must hold again, so a record changed
 * since the page was chosen is left out rather than shown.
 */
function pageRecords(
  scope: Scope,
  entries: readonly PageEntry[],
  version: string,
  where: ItemsWhereOf,
) {
  // Only the values the page presents: values are most of a record's bytes, and every
  // byte is decoded twice (and through the embedded engine's bridge) before presenting.
  const values =
    version === 'published'
      ? sql<Record<string, unknown>>`published_values`.as('item_values')
      : sql<Record<string, unknown>>`item_values`.as('item_values');
  const load = async (ids: string[]) => {
    const rows = await selectRowsAsJson(
      scope.db,
      scope.db
        .selectFrom('items')
        .select(PRESENTED_COLUMNS)
        .select(values)
        .select(sql<string>`stamp::text`.as('stamp'))
        .where(where)
        .where(anyText('id', ids)),
      { dates: ITEM_TIMESTAMP_COLUMNS },
    );
    return new Map(rows.map(({ stamp, ...row }) => [row.id, { row, stamp }]));
  };
  const wanted = entries.map((entry) => ({ ...entry, bytes: Number(entry.bytes ?? 0) }));
  return rowsAtStamps(scope, `list:${version}`, wanted, load);
}

type OrderRule = { expression: Expression<unknown>; direction: 'asc' | 'desc' };

/** The order's rules, and the value indexes that can serve them (value-indexes.ts). */
async function orderRules(
  scope: Scope,
  orderBy: string,
  models: ItemTypeRow[],
  locale: string | undefined,
): Promise<{ rules: OrderRule[]; indexes: ValueIndex[] }> {
  if (models.length !== 1 || !models[0])
    throw invalidParams('order_by needs filter[type] naming exactly one model');
  const model = models[0];
  const fields = (await fieldsOfModelsKept(scope, [model.id])).get(model.id) ?? [];
  const mainLocale = locale ?? (await localesOf(scope))[0] ?? '';
  const indexes: ValueIndex[] = [];
  const rules = commaList(orderBy).map((rule): OrderRule => {
    const match = /^(.+)_(ASC|DESC)$/.exec(rule);
    if (!match?.[1] || !match[2])
      throw invalidParams(`order_by rule "${rule}" is not <field>_(ASC|DESC)`);
    const [, name, dir] = match;
    const direction = dir === 'ASC' ? 'asc' : 'desc';
    const column = META_ORDER[name];
    if (column !== undefined) return { expression: sql.ref(column), direction };
    const field = fields.find((candidate) => candidate.api_key === name);
    if (!field) throw invalidParams(`order_by names "${name}", which is no field of the model`);
    const path = field.localized ? [field.id, mainLocale] : [field.id];
    indexes.push({
      modelId: model.id,
      fieldId: field.id,
      locale: field.localized ? mainLocale : null,
      column: 'item_values',
      kind: 'json',
    });
    return { expression: sql`item_values #> ${path}`, direction };
  });
  return { rules, indexes };
}

type ListPage = { records: RecordView[]; total: number };

/**
 * `GET /items`: one page of records and the total count. A page of every readable record
 * asked a second time is kept in the list cache at the request's records and schema
 * versions (caches.ts): asked again before any record or the schema changes, it is
 * answered without a statement. A role reading through its permissions reads afresh.
 */
export async function listItems(
  scope: Scope,
  query: ItemListQuery,
  /** The records the caller may read (readable-records.ts); null: every record. */
  readable: ItemsWhere | null,
  options: { admit?: AdmitRead } = {},
): Promise<ListPage> {
  const read = () => readListPage(scope, query, readable, options);
  if (readable !== null) return (await read()).page;
  return cachedListRead(scope, JSON.stringify(query), read);
}

/** One page and its total from the database, with the bytes of the page's values. */
async function readListPage(
  scope: Scope,
  query: ItemListQuery,
  readable: ItemsWhere | null,
  options: { admit?: AdmitRead },
): Promise<{ page: ListPage; bytes: number }> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw invalidParams(
      `page[limit] must be an integer from 1 to ${MAX_PAGE_LIMIT}`,
      'page[limit]',
    );
  if (!Number.isInteger(offset) || offset < 0)
    throw invalidParams('page[offset] must be a non-negative integer', 'page[offset]');
  const version = query.version ?? 'current';
  if (version !== 'current' && version !== 'published')
    throw invalidParams('version must be "current" or "published"');
  if (query.type !== undefined && query.ids !== undefined)
    throw invalidParams('filter[type] and filter[ids] cannot be combined');
  if (query.locale !== undefined && !(await localesOf(scope)).includes(query.locale))
    throw invalidParams(`locale "${query.locale}" is not a locale of the environment`);

  let models: ItemTypeRow[] = [];
  if (query.type !== undefined) {
    const keys = commaList(query.type);
    if (keys.length === 0)
      throw invalidParams(
        'filter[type] must name at least one model id or api_key',
        'filter[type]',
      );
    const named = await modelsNamed(scope, keys);
    models = named.models;
    const unknown = named.unknown;
    if (unknown.length > 0)
      throw invalidParams(`filter[type] names no model: ${unknown.join(', ')}`, 'filter[type]');
  }
  const { rules: order, indexes } = query.orderBy
    ? await orderRules(scope, query.orderBy, models, query.locale)
    : { rules: [], indexes: [] };
  const { conditions: filters, runsPatterns } =
    query.fields !== undefined || query.query !== undefined || query.onlyValid !== undefined
      ? await filterConditions(scope, {
          fields: query.fields,
          query: query.query,
          onlyValid: query.onlyValid,
          models,
          locale: query.locale ?? (await localesOf(scope))[0] ?? '',
          column: version === 'published' ? 'published_values' : 'item_values',
        })
      : { conditions: [], runsPatterns: false };
  // Once the whole query is known good (bad input changes nothing).
  await ensureValueIndexes(scope, indexes);

  const where: ItemsWhereOf = (eb) => {
    const conditions: Expression<SqlBool>[] = [];
    if (query.type !== undefined)
      conditions.push(
        eb(
          'item_type_id',
          'in',
          models.map((model) => model.id),
        ),
      );
    if (query.ids !== undefined) {
      const ids = commaList(query.ids);
      conditions.push(ids.length ? anyText('id', ids) : sql<SqlBool>`false`);
    }
    if (version === 'published') conditions.push(eb('published_values', 'is not', null));
    if (readable) conditions.push(readable(eb));
    conditions.push(...filters);
    return eb.and(conditions);
  };
  // Current records filtered by model at most (no field filter, every record readable):
  // the kept counts (migration 0006) answer without reading every record of the models.
  const byModelCounts =
    query.ids === undefined &&
    version === 'current' &&
    filters.length === 0 &&
    readable === null &&
    (query.type === undefined || models.length > 0);
  const counts = (db: EnvQueryable) =>
    db
      .selectFrom('item_counts')
      .select(sql<string>`coalesce(sum(total), 0)`.as('total'))
      .$if(query.type !== undefined, (kept) =>
        kept.where(
          'item_type_id',
          'in',
          models.map((model) => model.id),
        ),
      );
  const read = { version, nested: query.nested ?? false };
  const pageAndTotal = async (db: EnvQueryable) => {
    const entries = await pageStatement(db, {
      where,
      order,
      limit,
      offset,
      read,
      counts: byModelCounts ? sql<string>`(${counts(db)})` : null,
    });
    if (entries.length > 0 || offset === 0) return { entries, total: entries[0]?.total ?? 0 };
    // A page past the end holds no row to carry the total: counted on its own.
    const total = byModelCounts
      ? counts(db)
      : db
          .selectFrom('items')
          .select((eb) => eb.fn.countAll<string>().as('total'))
          .where(where);
    return { entries, total: (await total.executeTakeFirstOrThrow()).total };
  };
  const { entries, total } = runsPatterns
    ? await boundedPatternRun(scope.db, pageAndTotal)
    : await pageAndTotal(scope.db);
  // The page is measured before it is loaded: a page over the byte cap, or one the
  // process has no room for now, is refused before a byte of it is read.
  const bytes = checkPageBytes(
    entries.map((entry) => Number(entry.bytes ?? 0) + Number(entry.block_bytes ?? 0)),
  );
  options.admit?.(bytes);
  const rows = await pageRecords(scope, entries, version, where);
  models = await withModelsOf(scope, rows, models);
  const records = await pageViews(scope, rows, models, {
    published: version === 'published',
    nested: read.nested,
  });
  return { page: { records, total: Number(total) }, bytes };
}

type PageRow = Awaited<ReturnType<typeof pageRecords>>[number];

/** `models` with those of the page's records it lacks (a list not filtered by model). */
async function withModelsOf(
  scope: Scope,
  rows: readonly PageRow[],
  models: ItemTypeRow[],
): Promise<ItemTypeRow[]> {
  const missing = [...new Set(rows.map((row) => row.item_type_id))].filter(
    (id) => !models.some((model) => model.id === id),
  );
  return missing.length === 0 ? models : [...models, ...(await modelsNamed(scope, missing)).models];
}

/**
 * The page's records as views, in page order. A row kept at its stamp (frozen: caches.ts
 * rowsAtStamps) is viewed once per schema version and then shared (viewedOnce), so a record
 * unchanged since an earlier list is presented, and its JSON made, once; unless its view
 * holds more than its row: its blocks inline, or whether a tree record has children.
 */
async function pageViews(
  scope: Scope,
  rows: readonly PageRow[],
  models: readonly ItemTypeRow[],
  read: { published: boolean; nested: boolean },
): Promise<RecordView[]> {
  const fieldsByModel = await fieldsOfModelsKept(scope, [
    ...new Set(rows.map((row) => row.item_type_id)),
  ]);
  const modelById = new Map(models.map((model) => [model.id, model]));
  const modelOf = (row: PageRow) => {
    const model = modelById.get(row.item_type_id);
    if (!model) throw new Error(`record ${row.id} has no model`);
    return model;
  };
  const viewed = async (batch: readonly PageRow[]) => {
    // The page selected one values column: the published ones under `item_values` when asked.
    const withFields = batch.map((row) => ({
      ...row,
      published_values: read.published ? row.item_values : null,
      fields: fieldsByModel.get(row.item_type_id) ?? [],
    }));
    const shown = await valuesToShow(scope.db, withFields, read);
    const views = withFields.map((row, index) =>
      recordView(row, modelOf(row), row.fields, shown[index]?.values, shown[index]?.blocks),
    );
    return withTreeMeta(scope.db, views);
  };
  const shared = (row: PageRow) => !read.nested && Object.isFrozen(row) && !modelOf(row).tree;
  const key = read.published ? 'list:published' : 'list:current';
  const others = await viewed(rows.filter((row) => !shared(row)));
  let next = 0;
  return Promise.all(
    rows.map((row) =>
      shared(row)
        ? viewedOnce(scope, row, key, async () => (await viewed([row]))[0] ?? missingView(row))
        : (others[next++] ?? missingView(row)),
    ),
  );
}

function missingView(row: PageRow): never {
  throw new Error(`record ${row.id} was not viewed`);
}
