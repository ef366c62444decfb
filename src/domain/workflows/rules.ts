import type { WorkflowRow, WorkflowStage } from '../../db/schema.ts';
import { checkApiKey } from '../api-key.ts';
import { Issues } from '../errors.ts';
import { MAX_HINT_LENGTH, MAX_WORKFLOW_STAGES } from '../limits.ts';
import { checkMaxLength, checkRequiredText } from '../text-checks.ts';

/** Attributes a client may send, already shape-checked by the HTTP layer. */
export type WorkflowInput = {
  id?: string;
  attributes: Partial<{ name: string; api_key: string; stages: WorkflowStage[] }>;
};

export type WorkflowDraft = Pick<WorkflowRow, 'id' | 'name' | 'api_key' | 'stages'>;

/** Merges a request into the current state: omitted attributes keep their value. */
export function applyWorkflowInput(base: WorkflowDraft, input: WorkflowInput): WorkflowDraft {
  const { name, api_key, stages } = input.attributes;
  return {
    id: base.id,
    name: name ?? base.name,
    api_key: api_key ?? base.api_key,
    stages: stages ?? base.stages,
  };
}

/** Checks the merged state; returns it with every stage complete and exactly one initial. */
export function validateWorkflow(
  next: WorkflowDraft,
  ctx: { apiKeyTaken: boolean },
): WorkflowDraft {
  const issues = new Issues('Workflow');

  checkRequiredText(issues, 'name', next.name);
  checkApiKey(issues, next.api_key, { taken: ctx.apiKeyTaken });

  checkStages(next.stages, issues);
  issues.throwIfAny();
  return { ...next, stages: completeStages(next.stages) };
}

/** Stage problems are reported on their dotted path (`stages.1.id`). */
function checkStages(stages: WorkflowStage[], issues: Issues): void {
  if (stages.length === 0) {
    issues.add('stages', 'VALIDATION_REQUIRED', 'must have at least one stage');
    return;
  }
  if (stages.length > MAX_WORKFLOW_STAGES) {
    issues.add('stages', 'VALIDATION_LENGTH', `must have at most ${MAX_WORKFLOW_STAGES} stages`);
    return;
  }
  const seenIds = new Set<string>();
  stages.forEach((stage, index) => {
    const path = `stages.${index}`;
    if (checkRequiredText(issues, `${path}.id`, stage.id) && seenIds.has(stage.id))
      issues.add(`${path}.id`, 'VALIDATION_UNIQUENESS', 'is used by another stage');
    seenIds.add(stage.id);
    checkRequiredText(issues, `${path}.name`, stage.name);
    checkMaxLength(issues, `${path}.description`, stage.description, MAX_HINT_LENGTH);
  });
  if (stages.filter((stage) => stage.initial === true).length > 1)
    issues.add('stages', 'VALIDATION_INVALID', 'exactly one stage can be initial');
}

/** Every stage with all four members; the first one is initial when none is flagged. */
function completeStages(stages: WorkflowStage[]): WorkflowStage[] {
  const initialIndex = Math.max(
    stages.findIndex((stage) => stage.initial === true),
    0,
  );
  return stages.map((stage, index) => ({
    id: stage.id,
    name: stage.name,
    description: stage.description ?? null,
    initial: index === initialIndex,
  }));
}
