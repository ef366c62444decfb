import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { ItemTypeFilterRow } from '../../db/schema.ts';
import { Issues, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { checkNewId } from '../new-ids.ts';
import * as repo from './repo.ts';
import {
  applyItemTypeFilterInput,
  emptyItemTypeFilter,
  type ItemTypeFilterInput,
  validateItemTypeFilter,
} from './rules.ts';

async function findOrFail(db: EnvQueryable, id: string): Promise<ItemTypeFilterRow> {
  const row = await repo.findItemTypeFilter(db, id);
  if (!row) throw new NotFound('ItemTypeFilter', id);
  return row;
}

export async function listItemTypeFilters(scope: Scope): Promise<ItemTypeFilterRow[]> {
  return await repo.listItemTypeFilters(scope.db);
}

export async function findItemTypeFilter(scope: Scope, id: string): Promise<ItemTypeFilterRow> {
  return await findOrFail(scope.db, id);
}

export async function createItemTypeFilter(
  scope: Scope,
  input: ItemTypeFilterInput,
): Promise<ItemTypeFilterRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const idIssues = new Issues('ItemTypeFilter');
    await checkNewId(tx.db, idIssues, 'id', input.id, 'item_type_filters');
    idIssues.throwIfAny();
    const next = applyItemTypeFilterInput(emptyItemTypeFilter(input.id ?? generateId()), input);
    const draft = validateItemTypeFilter(next, {
      itemType: await repo.findItemType(tx.db, next.item_type_id),
    });
    return await repo.insertItemTypeFilter(tx.db, draft);
  });
}

export async function updateItemTypeFilter(
  scope: Scope,
  id: string,
  input: ItemTypeFilterInput,
): Promise<ItemTypeFilterRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const next = applyItemTypeFilterInput(await findOrFail(tx.db, id), input);
    const draft = validateItemTypeFilter(next, {
      itemType: await repo.findItemType(tx.db, next.item_type_id),
    });
    return await repo.saveItemTypeFilter(tx.db, draft);
  });
}

export async function destroyItemTypeFilter(scope: Scope, id: string): Promise<ItemTypeFilterRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const target = await findOrFail(tx.db, id);
    await repo.deleteItemTypeFilter(tx.db, target.id);
    return target;
  });
}
