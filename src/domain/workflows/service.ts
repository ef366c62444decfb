import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { WorkflowRow } from '../../db/schema.ts';
import { DomainError, Issues, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { settleStages } from '../items/schema-changes/stages.ts';
import { checkNewId } from '../new-ids.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import * as repo from './repo.ts';
import { applyWorkflowInput, validateWorkflow, type WorkflowInput } from './rules.ts';

async function findOrFail(db: EnvQueryable, id: string): Promise<WorkflowRow> {
  const row = await repo.findWorkflow(db, id);
  if (!row) throw new NotFound('Workflow', id);
  return row;
}

export async function listWorkflows(scope: Scope): Promise<WorkflowRow[]> {
  return await repo.listWorkflows(scope.db);
}

export async function findWorkflow(scope: Scope, id: string): Promise<WorkflowRow> {
  return await findOrFail(scope.db, id);
}

export async function createWorkflow(scope: Scope, input: WorkflowInput): Promise<WorkflowRow> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      const idIssues = new Issues('Workflow');
      await checkNewId(trx, idIssues, 'id', input.id, 'workflows');
      idIssues.throwIfAny();
      const base = { id: input.id ?? generateId(), name: '', api_key: '', stages: [] };
      const next = applyWorkflowInput(base, input);
      const draft = validateWorkflow(next, {
        apiKeyTaken: await repo.apiKeyTaken(trx, next.api_key, null),
      });
      return await repo.insertWorkflow(trx, draft);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

export async function updateWorkflow(
  scope: Scope,
  id: string,
  input: WorkflowInput,
): Promise<WorkflowRow> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      const before = await findOrFail(trx, id);
      const next = applyWorkflowInput(before, input);
      const draft = validateWorkflow(next, {
        apiKeyTaken: await repo.apiKeyTaken(trx, next.api_key, before.id),
      });
      const saved = await repo.saveWorkflow(trx, draft);
      // Records in a stage the workflow no longer has move to its initial stage.
      await settleStages(trx, { workflowId: saved.id });
      return saved;
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/** Refused while a model follows the workflow: its records would lose their stages. */
export async function destroyWorkflow(scope: Scope, id: string): Promise<WorkflowRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const target = await findOrFail(trx, id);
    const itemTypeIds = await repo.itemTypesUsing(trx, target.id);
    if (itemTypeIds.length > 0) {
      throw new DomainError(
        'REQUIRED_BY_ASSOCIATION',
        'the workflow is used by models; detach it from them first',
        { item_type_ids: itemTypeIds },
      );
    }
    await repo.deleteWorkflow(trx, target.id);
    return target;
  });
}
