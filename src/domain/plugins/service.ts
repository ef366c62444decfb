import {
  type EnvQueryable,
  inEnvironmentTransaction,
  type Scope,
} from '../../db/environment-scope.ts';
import type { PluginRow } from '../../db/schema.ts';
import { presentField } from '../../presenters/field.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { presentPlugin } from '../../presenters/plugin.ts';
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

export async function listPlugins(scope: Scope): Promise<Resource[]> {
  return (await repo.listPlugins(scope.db)).map(presentPlugin);
}

export async function findPlugin(scope: Scope, id: string): Promise<Resource> {
  return presentPlugin(await findOrFail(scope.db, id));
}

/** The fields that use the plugin as editor or addon. */
export async function pluginFields(scope: Scope, id: string): Promise<Resource[]> {
  await findOrFail(scope.db, id);
  return (await repo.fieldsUsing(scope.db, id)).map(presentField);
}

export async function createPlugin(scope: Scope, input: PluginInput): Promise<Resource> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const idIssues = new Issues('Plugin');
    await checkNewId(tx.db, idIssues, 'id', input.id, 'plugins');
    idIssues.throwIfAny();
    const draft = validatePlugin(applyPluginInput(emptyPlugin(input.id ?? generateId()), input));
    return presentPlugin(await repo.insertPlugin(tx.db, draft));
  });
}

export async function updatePlugin(
  scope: Scope,
  id: string,
  input: PluginInput,
): Promise<Resource> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const before = await findOrFail(tx.db, id);
    const draft = validatePlugin(applyPluginInput(before, input));
    return presentPlugin(await repo.savePlugin(tx.db, draft));
  });
}

/** Refused while a field uses the plugin: its appearance would name a missing plugin. */
export async function destroyPlugin(scope: Scope, id: string): Promise<Resource> {
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
    return presentPlugin(target);
  });
}
