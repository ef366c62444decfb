import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { UploadFilterRow } from '../../db/schema.ts';
import { Issues, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { checkNewId } from '../new-ids.ts';
import * as repo from './repo.ts';
import {
  applyUploadFilterInput,
  emptyUploadFilter,
  type UploadFilterInput,
  validateUploadFilter,
} from './rules.ts';

async function findOrFail(db: EnvQueryable, id: string): Promise<UploadFilterRow> {
  const row = await repo.findUploadFilter(db, id);
  if (!row) throw new NotFound('UploadFilter', id);
  return row;
}

export async function listUploadFilters(scope: Scope): Promise<UploadFilterRow[]> {
  return await repo.listUploadFilters(scope.db);
}

export async function findUploadFilter(scope: Scope, id: string): Promise<UploadFilterRow> {
  return await findOrFail(scope.db, id);
}

export async function createUploadFilter(
  scope: Scope,
  input: UploadFilterInput,
): Promise<UploadFilterRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const idIssues = new Issues('UploadFilter');
    await checkNewId(tx.db, idIssues, 'id', input.id, 'upload_filters');
    idIssues.throwIfAny();
    const draft = validateUploadFilter(
      applyUploadFilterInput(emptyUploadFilter(input.id ?? generateId()), input),
    );
    return await repo.insertUploadFilter(tx.db, draft);
  });
}

export async function updateUploadFilter(
  scope: Scope,
  id: string,
  input: UploadFilterInput,
): Promise<UploadFilterRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const draft = validateUploadFilter(applyUploadFilterInput(await findOrFail(tx.db, id), input));
    return await repo.saveUploadFilter(tx.db, draft);
  });
}

export async function destroyUploadFilter(scope: Scope, id: string): Promise<UploadFilterRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const target = await findOrFail(tx.db, id);
    await repo.deleteUploadFilter(tx.db, target.id);
    return target;
  });
}
