import type { EnvTrx } from '../../db/environment-scope.ts';
import type { ItemTypeInput } from './attributes.ts';
import * as repo from './repo.ts';
import { type ItemTypeDraft, type RuleContext, validateItemType } from './rules.ts';

type Clash = Pick<RuleContext, 'nameTaken' | 'apiKeyTaken'>;

/** Checks the model; `clash` when the caller already read it, else read here if needed. */
export async function checkAndBuild(
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
