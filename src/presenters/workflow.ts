import type { WorkflowRow } from '../db/schema.ts';
import type { Resource } from './jsonapi.ts';

export function presentWorkflow(row: WorkflowRow): Resource {
  return {
    type: 'workflow',
    id: row.id,
    attributes: { name: row.name, api_key: row.api_key, stages: row.stages },
  };
}
