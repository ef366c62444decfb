import type { EnvTrx, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { emitEvent } from '../../events/outbox.ts';
import { DomainError } from '../errors.ts';
import { dropValueIndexes } from '../items/query/value-indexes.ts';
import { dropBlocksOfModel } from '../items/schema-changes/block-removal.ts';
import { removeMenuEntriesOf } from '../menu/linked.ts';
import { cachedModelState, type ModelView, modelView } from '../schema/model-state.ts';
import { fieldsReferencing, referencingValidators } from '../schema/references.ts';
import { viewOf, viewsOf } from './model-views.ts';
import { findItemTypeOrFail } from './read-item-types.ts';
import * as repo from './repo.ts';

/**
 * Removes this model from other fields' link validators; refuses when a block is
 * still embeddable somewhere, or when a link field would be left with no model.
 */
async function detachReferences(trx: EnvTrx, target: ItemTypeRow): Promise<string[]> {
  const fields = (await fieldsReferencing(trx, target.id)).filter(
    (field) => field.item_type_id !== target.id,
  );
  const blockedBy = fields.filter((f) => referencingValidators(f, target.id).blocks.length > 0);
  if (blockedBy.length > 0) {
    throw new DomainError('MODULAR_BLOCK_IN_USE', 'the block model is used by other fields', {
      field_ids: blockedBy.map((field) => field.id),
    });
  }
  for (const field of fields) {
    const validators = { ...(field.validators as Record<string, { item_types: string[] }>) };
    for (const name of referencingValidators(field, target.id).links) {
      const remaining = (validators[name]?.item_types ?? []).filter((id) => id !== target.id);
      if (remaining.length === 0) {
        throw new DomainError(
          'REQUIRED_BY_ASSOCIATION',
          `field ${field.id} links only to this model; change or delete it first`,
          { field_id: field.id, validator: name },
        );
      }
      validators[name] = { ...validators[name], item_types: remaining };
    }
    await trx
      .updateTable('fields')
      .set({ validators: JSON.stringify(validators) })
      .where('id', '=', field.id)
      .execute();
  }
  return [...new Set(fields.map((field) => field.item_type_id))];
}

export async function destroyItemType(
  scope: Scope,
  idOrApiKey: string,
  options: { skipMenuItemsDeletion: boolean },
): Promise<ModelView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    // The first read, from the schema cache at the locked version when kept.
    const state = await cachedModelState(tx, idOrApiKey);
    const target = state.itemType;
    const deleted = modelView(state);
    const affectedIds = await detachReferences(trx, target);
    const affected =
      affectedIds.length === 0
        ? []
        : await trx.selectFrom('item_types').selectAll().where('id', 'in', affectedIds).execute();
    const previousOfAffected = await viewsOf(trx, affected);
    // The schema-sidebar entry always goes: one linked to no model is meaningless.
    await removeMenuEntriesOf(trx, 'schema_menu_items', target.id);
    if (!options.skipMenuItemsDeletion) await removeMenuEntriesOf(trx, 'menu_items', target.id);
    if (target.modular_block) await dropBlocksOfModel(trx, target.id);
    await repo.deleteItemType(trx, target.id);
    await dropValueIndexes(
      tx,
      state.fields.map((field) => field.id),
    );
    await emitEvent(tx, { entityType: 'item_type', eventType: 'delete', model: deleted });
    for (const previous of previousOfAffected) {
      const row = await findItemTypeOrFail(trx, previous.itemType.id);
      await emitEvent(tx, {
        entityType: 'item_type',
        eventType: 'update',
        model: await viewOf(trx, row),
        previous,
      });
    }
    return deleted;
  });
}
