import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateId } from '../../src/domain/ids.ts';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { tokenWithFlags } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

/** Asserts the call fails with this error code and details. */

const review = [
  { id: 'draft', name: 'Draft' },
  { id: 'in_review', name: 'In review', description: 'Waiting for an editor' },
];

describe('workflows through the official client', () => {
  test('create, find, list, update, destroy', async () => {
    const client = server.client();
    const created = await client.workflows.create({
      name: 'Editorial',
      api_key: 'editorial',
      stages: review as [(typeof review)[0], ...typeof review],
    });
    assert.equal(created.type, 'workflow');
    assert.deepEqual(created.stages, [
      { id: 'draft', name: 'Draft', description: null, initial: true },
      { id: 'in_review', name: 'In review', description: 'Waiting for an editor', initial: false },
    ]);

    assert.deepEqual(await client.workflows.find(created.id), created);
    assert.deepEqual(
      (await client.workflows.list()).map((w) => w.api_key),
      ['editorial'],
    );

    const updated = await client.workflows.update(created.id, {
      name: 'Editorial flow',
      stages: [
        { id: 'draft', name: 'Draft' },
        { id: 'in_review', name: 'In review', initial: true },
      ],
    });
    assert.equal(updated.name, 'Editorial flow');
    assert.equal(updated.api_key, 'editorial', 'omitted attributes stay unchanged');
    assert.deepEqual(
      updated.stages.map((s) => [s.id, s.initial]),
      [
        ['draft', false],
        ['in_review', true],
      ],
    );

    const destroyed = await server.request('DELETE', `/workflows/${created.id}`);
    assert.equal(destroyed.status, 200);
    assert.deepEqual((destroyed.body as { data: unknown }).data, {
      type: 'workflow',
      id: created.id,
      attributes: {
        name: 'Editorial flow',
        api_key: 'editorial',
        stages: updated.stages,
      },
    });
    await rejectsWithApiError(client.workflows.find(created.id), 'NOT_FOUND');
  });

  test('create answers 201 and keeps a client-chosen id', async () => {
    const id = generateId();
    const response = await server.request('POST', '/workflows', {
      data: {
        type: 'workflow',
        id,
        attributes: { name: 'Chosen', api_key: 'chosen', stages: [{ id: 'a', name: 'A' }] },
      },
    });
    assert.equal(response.status, 201);
    assert.equal((response.body as { data: { id: string } }).data.id, id);

    const client = server.client();
    const stages: [{ id: string; name: string }] = [{ id: 'a', name: 'A' }];
    await rejectsWithApiError(
      client.workflows.create({ id, name: 'Again', api_key: 'again', stages }),
      'INVALID_FIELD',
      { field: 'id', code: 'VALIDATION_UNIQUENESS', record_type: 'Workflow' },
    );
    await rejectsWithApiError(
      client.workflows.create({ id: 'not-an-id', name: 'Bad', api_key: 'bad_id', stages }),
      'INVALID_FIELD',
      { field: 'id', code: 'VALIDATION_INVALID' },
    );
  });

  test('validation failures come back with the spec codes and change nothing', async () => {
    const client = server.client();
    const stages: [{ id: string; name: string }] = [{ id: 'a', name: 'A' }];
    await client.workflows.create({ name: 'Taken', api_key: 'taken', stages });
    const before = await client.workflows.list();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { name: 'Other', api_key: 'taken', stages },
        { field: 'api_key', code: 'VALIDATION_UNIQUENESS', record_type: 'Workflow' },
      ],
      [
        { name: 'X', api_key: 'Bad Key', stages },
        { field: 'api_key', code: 'VALIDATION_FORMAT' },
      ],
      [
        { name: ' ', api_key: 'blank', stages },
        { field: 'name', code: 'VALIDATION_REQUIRED' },
      ],
      [
        { name: 'X', api_key: 'empty', stages: [] },
        { field: 'stages', code: 'VALIDATION_REQUIRED' },
      ],
      [
        {
          name: 'X',
          api_key: 'two_initial',
          stages: [
            { id: 'a', name: 'A', initial: true },
            { id: 'b', name: 'B', initial: true },
          ],
        },
        { field: 'stages', code: 'VALIDATION_INVALID' },
      ],
      [
        {
          name: 'X',
          api_key: 'same_ids',
          stages: [
            { id: 'a', name: 'A' },
            { id: 'a', name: 'B' },
          ],
        },
        { field: 'stages.1.id', code: 'VALIDATION_UNIQUENESS' },
      ],
      [
        { name: 'X', api_key: 'blank_stage', stages: [{ id: ' ', name: 'A' }] },
        { field: 'stages.0.id', code: 'VALIDATION_REQUIRED' },
      ],
      [
        { name: 'X', api_key: 'blank_stage_name', stages: [{ id: 'a', name: '' }] },
        { field: 'stages.0.name', code: 'VALIDATION_REQUIRED' },
      ],
    ];
    for (const [body, details] of cases) {
      await rejectsWithApiError(
        client.workflows.create(body as Parameters<typeof client.workflows.create>[0]),
        'INVALID_FIELD',
        details,
      );
    }
    const taken = before.find((w) => w.api_key === 'taken');
    assert.ok(taken);
    await rejectsWithApiError(
      client.workflows.update(taken.id, { stages: [] as unknown as typeof stages }),
      'INVALID_FIELD',
      { field: 'stages', code: 'VALIDATION_REQUIRED' },
    );
    assert.deepEqual(await client.workflows.list(), before);
  });

  test('unknown attributes and wrong types are refused by the schema', async () => {
    const unknown = await server.request('POST', '/workflows', {
      data: {
        type: 'workflow',
        attributes: { name: 'X', api_key: 'x', stages: [{ id: 'a', name: 'A' }], colour: 'red' },
      },
    });
    assert.equal(unknown.status, 422);
    assert.match(JSON.stringify(unknown.body), /INVALID_FORMAT/);

    const stageExtra = await server.request('POST', '/workflows', {
      data: {
        type: 'workflow',
        attributes: { name: 'X', api_key: 'x', stages: [{ id: 'a', name: 'A', colour: 'red' }] },
      },
    });
    assert.match(JSON.stringify(stageExtra.body), /INVALID_FORMAT/);

    const wrongType = await server.request('POST', '/workflows', {
      data: { type: 'item_type', attributes: { name: 'X', api_key: 'x', stages: [] } },
    });
    assert.match(JSON.stringify(wrongType.body), /INVALID_TYPE/);
  });

  test('a workflow used by a model cannot be destroyed until the model lets go of it', async () => {
    const client = server.client();
    const workflow = await client.workflows.create({
      name: 'Used',
      api_key: 'used',
      stages: [{ id: 'a', name: 'A' }],
    });
    const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
    const linked = await client.itemTypes.update(model.id, {
      workflow: { type: 'workflow', id: workflow.id },
    });
    assert.deepEqual(linked.workflow, { type: 'workflow', id: workflow.id });

    await rejectsWithApiError(client.workflows.destroy(workflow.id), 'REQUIRED_BY_ASSOCIATION');
    const refused = await server.request('DELETE', `/workflows/${workflow.id}`);
    assert.equal(refused.status, 422);
    const body = refused.body as { data: { attributes: { details: Record<string, unknown> } }[] };
    assert.deepEqual(body.data[0]?.attributes.details.item_type_ids, [model.id]);
    assert.equal((await client.workflows.find(workflow.id)).id, workflow.id);

    await client.itemTypes.update(model.id, { workflow: null });
    await client.workflows.destroy(workflow.id);
    await rejectsWithApiError(client.workflows.find(workflow.id), 'NOT_FOUND');
  });

  test('unknown ids are NOT_FOUND', async () => {
    const client = server.client();
    const id = generateId();
    await rejectsWithApiError(client.workflows.find(id), 'NOT_FOUND');
    await rejectsWithApiError(client.workflows.update(id, { name: 'X' }), 'NOT_FOUND');
    await rejectsWithApiError(client.workflows.destroy(id), 'NOT_FOUND');
  });

  test('writes need can_manage_workflows; reads do not', async () => {
    const token = await tokenWithFlags(server.db, ['can_edit_schema']);
    const client = server.client({ apiToken: token });
    const existing = await server.client().workflows.create({
      name: 'Guarded',
      api_key: 'guarded',
      stages: [{ id: 'a', name: 'A' }],
    });
    assert.equal((await client.workflows.list()).length > 0, true);
    await rejectsWithApiError(
      client.workflows.create({ name: 'No', api_key: 'no', stages: [{ id: 'a', name: 'A' }] }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      client.workflows.update(existing.id, { name: 'No' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(client.workflows.destroy(existing.id), 'INSUFFICIENT_PERMISSIONS');
  });

  test('concurrent creates with one api_key give one workflow and uniqueness errors', async () => {
    const client = server.client();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        client.workflows.create({
          name: `Race ${i}`,
          api_key: 'race',
          stages: [{ id: 'a', name: 'A' }],
        }),
      ),
    );
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(results.length - failures.length, 1);
    for (const failure of failures) {
      assert.ok(
        apiError(failure.reason).findError('INVALID_FIELD', {
          field: 'api_key',
          code: 'VALIDATION_UNIQUENESS',
        }),
      );
    }
  });
});
