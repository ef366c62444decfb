import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { FieldRow, PluginRow } from '../../db/schema.ts';
import { DomainError, Issues, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { checkNewId } from '../new-ids.ts';
import * as repo from './repo.ts';
import { applyPluginInput, emptyPlugin, type PluginInput, validatePlugin } from './rules.ts';

async function findOrFail(db: EnvQueryable, id: string): Promise<PluginRow> {
  const row = await repo.findPlugin(db, id);
  if (!row) throw new NotFound('Plugin', id);
  return row;
}

export async function listPlugins(scope: Scope): Promise<PluginRow[]> {
  return repo.listPlugins(scope.db);
}

export async function findPlugin(scope: Scope, id: string): Promise<PluginRow> {
  return findOrFail(scope.db, id);
}

/** The fields that use the plugin as editor or addon. */
export async function pluginFields(scope: Scope, id: string): Promise<FieldRow[]> {
  await findOrFail(scope.db, id);
  return repo.fieldsUsing(scope.db, id);
}

export async function createPlugin(scope: Scope, input: PluginInput): Promise<PluginRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const idIssues = new Issues('Plugin');
    await checkNewId(tx.db, idIssues, 'id', input.id, 'plugins');
    idIssues.throwIfAny();
    const draft = validatePlugin(applyPluginInput(emptyPlugin(input.id ?? generateId()), input));
    return await repo.insertPlugin(tx.db, draft);
  });
}

export async function updatePlugin(
  scope: Scope,
  id: string,
  input: PluginInput,
): Promise<PluginRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const before = await findOrFail(tx.db, id);
    const draft = validatePlugin(applyPluginInput(before, input));
    return await repo.savePlugin(tx.db, draft);
  });
}

/** Refused while a field uses the plugin: its appearance would name a missing plugin. */
export async function destroyPlugin(scope: Scope, id: string): Promise<PluginRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const target = await findOrFail(tx.db, id);
    const fieldIds = (await repo.fieldsUsing(tx.db, target.id)).map((field) => field.id);
    if (fieldIds.length > 0) {
      throw new DomainError(
        'REQUIRED_BY_ASSOCIATION',
        'the plugin is used by fields; change their appearance first',
        { field_ids: fieldIds },
      );
    }
    await repo.deletePlugin(tx.db, target.id);
    return target;
  });
}
