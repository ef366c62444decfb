import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { UnreadWrite } from '../../db/query/carried-writes.ts';
import { emitEvent } from '../../events/outbox.ts';
import { generateId } from '../ids.ts';
import { checkRoomFor } from '../limits.ts';
import { appendedMenuItemInsert, linkedSchemaMenuItemInsert } from '../menu/linked.ts';
import type { ModelView } from '../schema/model-state.ts';
import { duplicateItemTypeRows } from './duplicate.ts';
import { viewOf } from './model-views.ts';
import { findItemTypeOrFail } from './read-item-types.ts';
import * as repo from './repo.ts';

export async function duplicateItemType(scope: Scope, idOrApiKey: string): Promise<ModelView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const source = await findItemTypeOrFail(trx, idOrApiKey);
    checkRoomFor('item_types', await repo.countItemTypes(trx));
    const copy = await duplicateItemTypeRows(trx, source);
    const menuItems: UnreadWrite[] = copy.modular_block
      ? []
      : [appendedMenuItemInsert(trx, { id: generateId(), label: copy.name, itemTypeId: copy.id })];
    menuItems.push(
      linkedSchemaMenuItemInsert(trx, {
        id: generateId(),
        itemTypeId: copy.id,
        kind: copy.modular_block ? 'modular_block' : 'item_type',
      }),
    );
    // Reads the copy's fields, not the menu: the event may carry the menu entries' inserts.
    const itemType = await viewOf(trx, copy);
    await emitEvent(
      tx,
      { entityType: 'item_type', eventType: 'create', model: itemType },
      { writes: menuItems },
    );
    return itemType;
  });
}
