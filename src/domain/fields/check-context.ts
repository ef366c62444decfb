import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import type { Issues } from '../errors.ts';
import { existingPluginIds } from '../plugins/repo.ts';
import { referencedPluginIds } from '../schema/field-types/editors.ts';
import {
  checkFieldDefinition,
  type FieldCheckContext,
  type FieldDefinition,
  referencedItemTypeIds,
} from '../schema/field-types/index.ts';
import type { ModelState } from '../schema/model-state.ts';

/** What the field-type registry needs from the database to check this definition. */
export async function loadCheckContext(
  db: EnvQueryable,
  state: ModelState,
  fieldId: string,
  definition: FieldDefinition,
  locales: string[],
): Promise<FieldCheckContext> {
  const ids = referencedItemTypeIds(definition.validators);
  const itemTypes =
    ids.length === 0
      ? []
      : await db
          .selectFrom('item_types')
          .select(['id', 'modular_block'])
          .where('id', 'in', ids)
          .execute();
  return {
    locales,
    itemTypes: new Map(itemTypes.map((row) => [row.id, { modular_block: row.modular_block }])),
    siblingFields: state.fields
      .filter((field) => field.id !== fieldId)
      .map((field) => ({ id: field.id, field_type: field.field_type })),
    isBlockModel: state.itemType.modular_block,
    plugins: await existingPluginIds(
      db,
      referencedPluginIds(definition.field_type, definition.appearance),
    ),
  };
}

/** Checks the definition against the registry when the request touched it. */
export async function checkDefinition(
  trx: EnvTrx,
  issues: Issues,
  state: ModelState,
  fieldId: string,
  definition: FieldDefinition,
  locales: string[],
): Promise<FieldDefinition> {
  const context = await loadCheckContext(trx, state, fieldId, definition, locales);
  return checkFieldDefinition(issues, definition, context);
}
