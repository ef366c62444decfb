import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { WorkflowStage } from '../../db/schema.ts';

// Workflow stages of records (meta.stage): a record of a model that follows a workflow is
// always in one of its stages; records of other models are in none (null).

/** The stages of a workflow, none when there is no workflow. */
export async function workflowStages(
  db: EnvQueryable,
  workflowId: string | null,
): Promise<WorkflowStage[]> {
  if (workflowId === null) return [];
  const row = await db
    .selectFrom('workflows')
    .select('stages')
    .where('id', '=', workflowId)
    .executeTakeFirst();
  return row?.stages ?? [];
}

/** The stage a workflow's records start in: the one marked initial, else the first. */
export function initialOf(stages: readonly WorkflowStage[]): string | null {
  return (stages.find((stage) => stage.initial) ?? stages[0])?.id ?? null;
}

/** The stage a new record starts in: its workflow's initial one (no read without a workflow). */
export async function initialStage(
  db: EnvQueryable,
  workflowId: string | null,
): Promise<string | null> {
  return initialOf(await workflowStages(db, workflowId));
}
