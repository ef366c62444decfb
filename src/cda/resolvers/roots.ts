import type { ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import { pageBounds } from '../limits/page-bounds.ts';
import type { DeliveryContext, DeliveryRecord } from './context.ts';
import { countRecords, findRecords } from './records-query.ts';
import type { DeliveryRow } from './rows.ts';

/** The arguments of the roots `allXs`, `x` and `_allXsMeta`. */
export type RootArgs = {
  locale?: string | null;
  fallbackLocales?: string[] | null;
  skip?: number | null;
  first?: number | null;
  filter?: Record<string, unknown> | null;
  orderBy?: string[] | null;
};

const DEFAULT_ORDER = ['_updatedAt_DESC'];

function inLocale(
  rows: readonly DeliveryRow[],
  args: RootArgs,
  context: DeliveryContext,
): DeliveryRecord[] {
  const locale = args.locale ?? context.locales[0] ?? '';
  const fallbackLocales = args.fallbackLocales ?? [];
  return rows.map((row) => ({ row, locale, fallbackLocales }));
}

function recordsQuery(
  model: ItemTypeRow,
  fields: readonly FilterField[],
  args: RootArgs,
  context: DeliveryContext,
) {
  return { model, fields, filter: args.filter, locale: args.locale ?? context.locales[0] ?? '' };
}

/** `allXs`: one page of the model's records. */
export function collectionResolver(model: ItemTypeRow, fields: readonly FilterField[]) {
  return async (_root: unknown, args: RootArgs, context: DeliveryContext) => {
    const page = pageBounds(args.first, args.skip);
    if (page.first === 0) return [];
    const rows = await findRecords(context, recordsQuery(model, fields, args, context), {
      ...page,
      orderBy: args.orderBy?.filter((value) => value !== null) ?? DEFAULT_ORDER,
    });
    return inLocale(rows, args, context);
  };
}

/** `x`: the first record matching the filter. */
export function singleResolver(model: ItemTypeRow, fields: readonly FilterField[]) {
  return async (_root: unknown, args: RootArgs, context: DeliveryContext) => {
    const rows = await findRecords(context, recordsQuery(model, fields, args, context), {
      first: 1,
      skip: 0,
      orderBy: args.orderBy?.filter((value) => value !== null) ?? DEFAULT_ORDER,
    });
    return inLocale(rows, args, context)[0] ?? null;
  };
}

/** `_allXsMeta`: how many records match. */
export function metaResolver(model: ItemTypeRow, fields: readonly FilterField[]) {
  return async (_root: unknown, args: RootArgs, context: DeliveryContext) => ({
    count: await countRecords(context, recordsQuery(model, fields, args, context)),
  });
}

/** A singleton model's root: its one record. */
export function singletonResolver(model: ItemTypeRow) {
  return async (_root: unknown, args: RootArgs, context: DeliveryContext) => {
    if (model.singleton_item_id === null) return null;
    const row = await context.records.load(model.singleton_item_id);
    if (row === null || row.item_type_id !== model.id) return null;
    return inLocale([row], args, context)[0] ?? null;
  };
}
