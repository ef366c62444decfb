import {
  type EnvQueryable,
  type EnvTrx,
  inEnvironmentTransaction,
  type Scope,
} from '../../db/environment-scope.ts';
import type { UnreadWrite } from '../../db/query/carried-writes.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { emitEvent } from '../../events/outbox.ts';
import { DomainError, Issues, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { dropBlocksOfModel } from '../items/schema-changes/block-removal.ts';
import { refreshRecords } from '../items/schema-changes/refresh.ts';
import { settleStages } from '../items/schema-changes/stages.ts';
import { checkRoomFor } from '../limits.ts';
import {
  appendedMenuItemInsert,
  linkedMenuItem,
  linkedSchemaMenuItemInsert,
  menuItemInsert,
  type NewMenuItem,
  removeMenuEntriesOf,
} from '../menu/linked.ts';
import { checkNewId } from '../new-ids.ts';
import {
  arrangeChildren,
  findItemType as findItemTypeRow,
  loadChildren,
} from '../schema/model-rows.ts';
import { cachedModelState, type ModelView, modelView } from '../schema/model-state.ts';
import { fieldsReferencing, referencingValidators } from '../schema/references.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import type { ItemTypeInput } from './attributes.ts';
import { duplicateItemTypeRows } from './duplicate.ts';
import * as repo from './repo.ts';
import {
  applyItemTypeInput,
  type ItemTypeDraft,
  newItemTypeDraft,
  type RuleContext,
  validateItemType,
} from './rules.ts';

export type CreateOptions = {
  skipMenuItemCreation: boolean;
  menuItemId?: string;
  schemaMenuItemId?: string;
};

export type CreateResult = { itemType: ModelView; menuItem: NewMenuItem | null };

async function viewOf(db: EnvQueryable, row: ItemTypeRow): Promise<ModelView> {
  const children = await loadChildren(db, [row.id]);
  return { itemType: row, children: children.get(row.id) ?? { fieldIds: [], fieldsetIds: [] } };
}

async function viewsOf(db: EnvQueryable, rows: ItemTypeRow[]): Promise<ModelView[]> {
  const children = await loadChildren(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    itemType: row,
    children: children.get(row.id) ?? { fieldIds: [], fieldsetIds: [] },
  }));
}

export async function findOrFail(db: EnvQueryable, idOrApiKey: string): Promise<ItemTypeRow> {
  const row = await findItemTypeRow(db, idOrApiKey);
  if (!row) throw new NotFound('Item type', idOrApiKey);
  return row;
}

/** Models having a field whose validators reference this one. */
export async function referencingItemTypes(scope: Scope, idOrApiKey: string): Promise<ModelView[]> {
  const target = await findOrFail(scope.db, idOrApiKey);
  const fields = await fieldsReferencing(scope.db, target.id);
  const ids = [...new Set(fields.map((field) => field.item_type_id))];
  const rows = (await repo.listItemTypes(scope.db)).filter((row) => ids.includes(row.id));
  return viewsOf(scope.db, rows);
}

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

type Clash = Pick<RuleContext, 'nameTaken' | 'apiKeyTaken'>;

/** Checks the model; `clash` when the caller already read it, else read here if needed. */
async function checkAndBuild(
  trx: EnvTrx,
  before: ItemTypeDraft | null,
  next: ItemTypeDraft,
  input: ItemTypeInput,
  fields: RuleContext['fields'],
  clash?: Clash,
): Promise<ItemTypeDraft> {
  // An unchanged workflow is still there: the foreign key forbids deleting it.
  const checkWorkflow = next.workflow_id !== null && next.workflow_id !== before?.workflow_id;
  const [workflow, taken] = await Promise.all([
    checkWorkflow
      ? trx
          .selectFrom('workflows')
          .select('id')
          .where('id', '=', next.workflow_id)
          .executeTakeFirst()
      : Promise.resolve(next.workflow_id === null ? undefined : { id: next.workflow_id }),
    // Unique indexes keep an unchanged name and api_key free of clashes.
    clash ??
      (before && next.name === before.name && next.api_key === before.api_key
        ? { nameTaken: false, apiKeyTaken: false }
        : repo.clashingItemType(trx, next.name, next.api_key, before ? before.id : null)),
  ]);
  return validateItemType(before, next, input, {
    isCreate: before === null,
    fields,
    workflowExists: workflow !== undefined,
    ...taken,
  });
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

export async function updateItemType(
  scope: Scope,
  idOrApiKey: string,
  input: ItemTypeInput,
): Promise<ModelView> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      // Updating a model leaves its fields and fieldsets as they are: one read serves
      // the rules and both the previous and the new presentation. The first read: from the
      // schema cache at the locked version when kept.
      const state = await cachedModelState(tx, idOrApiKey);
      const before = state.itemType;
      const draft = await checkAndBuild(
        trx,
        before,
        applyItemTypeInput(before, input),
        input,
        state.fields,
      );
      const children = arrangeChildren(state, [before.id]).get(before.id) ?? {
        fieldIds: [],
        fieldsetIds: [],
      };
      const previous: ModelView = { itemType: before, children };
      const row: ItemTypeRow = { ...before, ...draft };
      const update = repo.itemTypeUpdate(trx, row);
      // Requiring every locale may leave records without a value they now need.
      const refresh = row.all_locales_required !== before.all_locales_required;
      // Records follow their model's workflow: they start over in its initial stage.
      const settle = row.workflow_id !== before.workflow_id;
      if (refresh || settle) await update.execute();
      if (refresh) await refreshRecords(trx, row.id);
      if (settle) await settleStages(trx, { workflowId: row.workflow_id, itemTypeId: row.id });
      const itemType: ModelView = { itemType: row, children };
      await emitEvent(
        tx,
        { entityType: 'item_type', eventType: 'update', model: itemType, previous },
        // Records read the model as updated: else the update is the last write, and its
        // event's statement carries it.
        refresh || settle ? undefined : { writes: [update] },
      );
      return itemType;
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

export async function duplicateItemType(scope: Scope, idOrApiKey: string): Promise<ModelView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const source = await findOrFail(trx, idOrApiKey);
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
    await emitEvent(tx, { entityType: 'item_type', eventType: 'delete', model: deleted });
    for (const previous of previousOfAffected) {
      const row = await findOrFail(trx, previous.itemType.id);
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
