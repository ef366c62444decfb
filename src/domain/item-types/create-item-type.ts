import type { EnvTrx, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { UnreadWrite } from '../../db/query/carried-writes.ts';
import { emitEvent } from '../../events/outbox.ts';
import { Issues } from '../errors.ts';
import { generateId } from '../ids.ts';
import { checkRoomFor } from '../limits.ts';
import {
  linkedMenuItem,
  linkedSchemaMenuItemInsert,
  menuItemInsert,
  type NewMenuItem,
} from '../menu/linked.ts';
import { checkNewId } from '../new-ids.ts';
import type { ModelView } from '../schema/model-state.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import type { ItemTypeInput } from './attributes.ts';
import { checkAndBuild } from './check-item-type.ts';
import * as repo from './repo.ts';
import { applyItemTypeInput, newItemTypeDraft } from './rules.ts';

export type CreateOptions = {
  skipMenuItemCreation: boolean;
  menuItemId?: string;
  schemaMenuItemId?: string;
};

export type CreateResult = { itemType: ModelView; menuItem: NewMenuItem | null };

/** Client-chosen ids must be well formed and not used yet. */
async function checkNewIds(
  trx: EnvTrx,
  input: ItemTypeInput,
  options: CreateOptions,
): Promise<void> {
  const issues = new Issues('ItemType');
  await checkNewId(trx, issues, 'id', input.id, 'item_types');
  await checkNewId(trx, issues, 'menu_item_id', options.menuItemId, 'menu_items');
  await checkNewId(
    trx,
    issues,
    'schema_menu_item_id',
    options.schemaMenuItemId,
    'schema_menu_items',
  );
  issues.throwIfAny();
}

export async function createItemType(
  scope: Scope,
  input: ItemTypeInput,
  options: CreateOptions,
): Promise<CreateResult> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      const id = input.id ?? generateId();
      // The name and api_key asked for, which the one read before any write checks.
      const asked = applyItemTypeInput(newItemTypeDraft(id, false), input);
      const facts = await repo.newModelFacts(tx, asked.name, asked.api_key);
      checkRoomFor('item_types', facts.count);
      await checkNewIds(trx, input, options);
      const base = newItemTypeDraft(id, facts.draftModeDefault);
      const next = applyItemTypeInput(base, input);
      const draft = await checkAndBuild(trx, null, next, input, [], {
        nameTaken: facts.nameTaken,
        apiKeyTaken: facts.apiKeyTaken,
      });
      // The model's row and its menu entries: nothing reads them before the event, whose
      // statement carries them.
      const writes: UnreadWrite[] = [repo.itemTypeInsert(trx, draft)];
      let menuItem: NewMenuItem | null = null;
      if (!options.skipMenuItemCreation && !draft.modular_block) {
        const linked = {
          id: options.menuItemId ?? generateId(),
          label: draft.name,
          itemTypeId: id,
        };
        menuItem = linkedMenuItem(linked, facts.menuEnd);
        writes.push(menuItemInsert(trx, menuItem));
      }
      writes.push(
        linkedSchemaMenuItemInsert(trx, {
          id: options.schemaMenuItemId ?? generateId(),
          itemTypeId: id,
          kind: draft.modular_block ? 'modular_block' : 'item_type',
        }),
      );
      // A model being created has no fields or fieldsets yet.
      const itemType: ModelView = { itemType: draft, children: { fieldIds: [], fieldsetIds: [] } };
      await emitEvent(
        tx,
        { entityType: 'item_type', eventType: 'create', model: itemType },
        { writes },
      );
      return { itemType, menuItem };
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}
