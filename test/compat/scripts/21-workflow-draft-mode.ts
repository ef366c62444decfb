// Editorial workflow: a workflow with stages is created first (as the generated
// "Manage workflows" step does), then models with draft mode join it through their
// `workflow` relationship in the finalize step.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertAttributes, findModel } from '../../support/migration-schema.ts';

const REVIEW = 'DtWSPQoxReuLmRceiWqZPg';
const GUIDE = 'ef037hUUTQS5fuDY2A1jKg';

export default async function (client: Client) {
  // Create workflow "Editorial review"
  await client.workflows.create({
    id: REVIEW,
    name: 'Editorial review',
    api_key: 'editorial_review',
    stages: [
      { id: 'draft', name: 'Draft', description: null, initial: true },
      { id: 'in_review', name: 'In review', description: 'Waiting for an editor' },
      { id: 'approved', name: 'Approved', description: null },
    ],
  });

  // Create model "Guide" (`guide`)
  await client.itemTypes.create(
    {
      id: GUIDE,
      name: 'Guide',
      api_key: 'guide',
      draft_mode_active: true,
      draft_saving_active: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  await client.fields.create(GUIDE, {
    id: 'KvAXRlWLTD6jlBtlDVNzIA',
    label: 'Title',
    field_type: 'string',
    api_key: 'title',
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
  });

  // Update model "Guide" (`guide`)
  await client.itemTypes.update(GUIDE, {
    title_field: { id: 'KvAXRlWLTD6jlBtlDVNzIA', type: 'field' },
    workflow: { id: REVIEW, type: 'workflow' },
  });
}

export async function expect(client: Client) {
  const [workflow] = await client.workflows.list();
  assert.ok(workflow);
  assert.equal(workflow.id, REVIEW);
  assert.deepEqual(
    workflow.stages.map((stage) => stage.id),
    ['draft', 'in_review', 'approved'],
  );
  assertAttributes(
    await findModel(client, 'guide'),
    {
      draft_mode_active: true,
      draft_saving_active: true,
      workflow: { type: 'workflow', id: REVIEW },
      title_field: { type: 'field', id: 'KvAXRlWLTD6jlBtlDVNzIA' },
    },
    'guide',
  );
}
