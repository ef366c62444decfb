import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import type { ScopedTransaction } from '../../src/db/environment-scope.ts';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { raceTheLock } from '../support/environment-lock.ts';
import { buildModel, itemTypeRef } from '../support/factories.ts';
import { itemPermission, tokenWithRole } from '../support/limited-token.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Records of a model that follows a workflow are in one of its stages (meta.stage), and
// move between them in bulk.

let server: TestServer;
let client: Client;
before(async () => {
  server = await startTestServer();
  client = server.client();
});
after(async () => {
  await server?.close();
});

const asItems = (ids: string[]) => ids.map((id) => ({ type: 'item' as const, id }));

let workflows = 0;
async function buildWorkflow() {
  workflows++;
  return client.workflows.create({
    name: `Review ${workflows}`,
    api_key: `review_n${workflows}`,
    stages: [
      { id: 'drafting', name: 'Drafting' },
      { id: 'in_review', name: 'In review', initial: false },
      { id: 'approved', name: 'Approved' },
    ],
  });
}

describe('record stages', () => {
  test('a new record starts in the initial stage; records of other models have none', async () => {
    const workflow = await buildWorkflow();
    const model = await buildModel(client, { workflow: { type: 'workflow', id: workflow.id } });
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    assert.equal(record.meta.stage, 'drafting');
    assert.equal((await client.items.find(record.id)).meta.stage, 'drafting');
    const plain = await client.items.create({
      item_type: itemTypeRef((await buildModel(client)).id),
    });
    assert.equal(plain.meta.stage, null);
  });

  test('bulk move: every record moves, and a record without that stage fails alone', async () => {
    const workflow = await buildWorkflow();
    const model = await buildModel(client, { workflow: { type: 'workflow', id: workflow.id } });
    const a = await client.items.create({ item_type: itemTypeRef(model.id) });
    const b = await client.items.create({ item_type: itemTypeRef(model.id) });
    const plain = await client.items.create({
      item_type: itemTypeRef((await buildModel(client)).id),
    });

    const result = await client.items.rawBulkMoveToStage({
      data: {
        type: 'item_bulk_move_to_stage_operation',
        attributes: { stage: 'in_review' },
        relationships: { items: { data: asItems([a.id, b.id, plain.id]) } },
      },
    });
    assert.deepEqual(result.meta, { successful: 2, failed: 1 });
    const listed = await client.items.list({ filter: { type: model.id } });
    assert.deepEqual(
      listed.map((record) => record.meta.stage),
      ['in_review', 'in_review'],
    );
    assert.equal((await client.items.find(plain.id)).meta.stage, null);

    await client.items.bulkMoveToStage({ stage: 'approved', items: asItems([a.id]) });
    assert.equal((await client.items.find(a.id)).meta.stage, 'approved');

    const unknown = await client.items.rawBulkMoveToStage({
      data: {
        type: 'item_bulk_move_to_stage_operation',
        attributes: { stage: 'published_somewhere' },
        relationships: { items: { data: asItems([a.id]) } },
      },
    });
    assert.deepEqual(unknown.meta, { successful: 0, failed: 1 });
    assert.equal((await client.items.find(a.id)).meta.stage, 'approved', 'nothing changed');
  });

  test('a body without a stage is refused before any record moves', async () => {
    const workflow = await buildWorkflow();
    const model = await buildModel(client, { workflow: { type: 'workflow', id: workflow.id } });
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    await rejectsWithApiError(
      client.items.rawBulkMoveToStage({
        data: {
          type: 'item_bulk_move_to_stage_operation',
          attributes: {},
          relationships: { items: { data: asItems([record.id]) } },
        },
      } as never),
      'INVALID_FORMAT',
    );
    assert.equal((await client.items.find(record.id)).meta.stage, 'drafting');
  });

  test('changing a model workflow, or removing a stage, moves records to the initial stage', async () => {
    const first = await buildWorkflow();
    const model = await buildModel(client, { workflow: { type: 'workflow', id: first.id } });
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    await client.items.bulkMoveToStage({ stage: 'approved', items: asItems([record.id]) });

    await client.workflows.update(first.id, {
      stages: [
        { id: 'drafting', name: 'Drafting', initial: false },
        { id: 'checking', name: 'Checking', initial: true },
      ],
    });
    assert.equal((await client.items.find(record.id)).meta.stage, 'checking');

    const second = await buildWorkflow();
    await client.itemTypes.update(model.id, { workflow: { type: 'workflow', id: second.id } });
    assert.equal((await client.items.find(record.id)).meta.stage, 'drafting');
    await client.itemTypes.update(model.id, { workflow: null });
    assert.equal((await client.items.find(record.id)).meta.stage, null);
  });

  test('moving needs the move_to_stage permission on every record named', async () => {
    const workflow = await buildWorkflow();
    const model = await buildModel(client, { workflow: { type: 'workflow', id: workflow.id } });
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    const updater = await tokenWithRole(server.db, {
      positive_item_type_permissions: [itemPermission('read'), itemPermission('update')],
    });
    await rejectsWithApiError(
      server
        .client({ apiToken: updater.token })
        .items.bulkMoveToStage({ stage: 'approved', items: asItems([record.id]) }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.equal((await client.items.find(record.id)).meta.stage, 'drafting');
    const mover = await tokenWithRole(server.db, {
      positive_item_type_permissions: [itemPermission('move_to_stage')],
    });
    await server
      .client({ apiToken: mover.token })
      .items.bulkMoveToStage({ stage: 'approved', items: asItems([record.id]) });
    assert.equal((await client.items.find(record.id)).meta.stage, 'approved');
  });
});

describe('permissions limited to a stage', () => {
  /** A record of a model following a new workflow, in its initial stage `drafting`. */
  async function recordInWorkflow() {
    const workflow = await buildWorkflow();
    const model = await buildModel(client, { workflow: { type: 'workflow', id: workflow.id } });
    return client.items.create({ item_type: itemTypeRef(model.id) });
  }
  const moveTo = (stage: string, ids: string[], as: Client = client) =>
    as.items.bulkMoveToStage({ stage, items: asItems(ids) });
  async function clientWith(positive: unknown[], negative: unknown[] = []) {
    const { token } = await tokenWithRole(server.db, {
      positive_item_type_permissions: positive,
      negative_item_type_permissions: negative,
    });
    return server.client({ apiToken: token });
  }

  test('on_stage grants an action on the records on that stage only', async () => {
    const record = await recordInWorkflow();
    const plain = await client.items.create({
      item_type: itemTypeRef((await buildModel(client)).id),
    });
    const editor = await clientWith([
      itemPermission('read'),
      itemPermission('update', { on_stage: 'drafting' }),
    ]);
    await editor.items.update(record.id, {});
    await rejectsWithApiError(editor.items.update(plain.id, {}), 'INSUFFICIENT_PERMISSIONS');
    await moveTo('in_review', [record.id]);
    await rejectsWithApiError(editor.items.update(record.id, {}), 'INSUFFICIENT_PERMISSIONS');
  });

  test('an "all" entry on a stage lists and reads the records on that stage only', async () => {
    const drafting = await recordInWorkflow();
    const approved = await client.items.create({ item_type: drafting.item_type });
    await moveTo('approved', [approved.id]);
    const reader = await clientWith([itemPermission('all', { on_stage: 'approved' })]);
    const listed = await reader.items.list({ filter: { type: drafting.item_type.id } });
    assert.deepEqual(
      listed.map((item) => item.id),
      [approved.id],
    );
    assert.equal((await reader.items.find(approved.id)).id, approved.id);
    await rejectsWithApiError(reader.items.find(drafting.id), 'INSUFFICIENT_PERMISSIONS');
  });

  test('to_stage limits which stage a move may go to', async () => {
    const record = await recordInWorkflow();
    const mover = await clientWith([itemPermission('move_to_stage', { to_stage: 'in_review' })]);
    await rejectsWithApiError(moveTo('approved', [record.id], mover), 'INSUFFICIENT_PERMISSIONS');
    assert.equal((await client.items.find(record.id)).meta.stage, 'drafting');
    await moveTo('in_review', [record.id], mover);
    assert.equal((await client.items.find(record.id)).meta.stage, 'in_review');
    // A to_stage entry grants no other action.
    await rejectsWithApiError(mover.items.update(record.id, {}), 'INSUFFICIENT_PERMISSIONS');
  });

  test('negative entries on a stage, or towards one, take away only that', async () => {
    const record = await recordInWorkflow();
    const other = await client.items.create({ item_type: record.item_type });
    const limited = await clientWith(
      [itemPermission('all')],
      [
        itemPermission('move_to_stage', { to_stage: 'approved' }),
        itemPermission('delete', { on_stage: 'in_review' }),
      ],
    );
    await rejectsWithApiError(moveTo('approved', [record.id], limited), 'INSUFFICIENT_PERMISSIONS');
    await moveTo('in_review', [record.id], limited);
    await rejectsWithApiError(limited.items.destroy(record.id), 'INSUFFICIENT_PERMISSIONS');
    await limited.items.destroy(other.id);
    assert.equal((await client.items.find(record.id)).meta.stage, 'in_review');
  });

  /** What a concurrent move commits, written straight into the record's row. */
  const movedInPlace = (id: string, stage: string) => async (tx: ScopedTransaction) => {
    await tx.db.updateTable('items').set({ stage }).where('id', '=', id).execute();
  };

  test('a write judges the stage its transaction finds, not the one seen before it', async () => {
    const record = await recordInWorkflow();
    const editor = await clientWith([
      itemPermission('read'),
      itemPermission('update', { on_stage: 'drafting' }),
      itemPermission('move_to_stage', { on_stage: 'drafting' }),
    ]);
    // The record is in `drafting` when each request comes, and moved on just before its write.
    await rejectsWithApiError(
      raceTheLock(
        server.db,
        () => editor.items.update(record.id, {}),
        movedInPlace(record.id, 'in_review'),
      ),
      'INSUFFICIENT_PERMISSIONS',
    );
    const found = await client.items.find(record.id);
    assert.equal(found.meta.current_version, record.meta.current_version, 'not updated');

    const other = await client.items.create({ item_type: record.item_type });
    const moving = raceTheLock(
      server.db,
      () =>
        editor.items.rawBulkMoveToStage({
          data: {
            type: 'item_bulk_move_to_stage_operation',
            attributes: { stage: 'approved' },
            relationships: { items: { data: asItems([other.id]) } },
          },
        }),
      movedInPlace(other.id, 'in_review'),
    );
    if (TEST_ENGINE === 'postgres')
      // Checked when it came, the record fails alone in its own transaction.
      assert.deepEqual((await moving).meta, { successful: 0, failed: 1 });
    // One connection: the check before the operation already sees the move.
    else await rejectsWithApiError(moving, 'INSUFFICIENT_PERMISSIONS');
    assert.equal((await client.items.find(other.id)).meta.stage, 'in_review');
  });

  test('duplicating judges the stage its transaction finds', async () => {
    const record = await recordInWorkflow();
    const duplicator = await clientWith([
      itemPermission('read'),
      itemPermission('create'),
      itemPermission('duplicate', { on_stage: 'drafting' }),
    ]);
    await rejectsWithApiError(
      raceTheLock(
        server.db,
        () => duplicator.items.duplicate(record.id),
        movedInPlace(record.id, 'in_review'),
      ),
      'INSUFFICIENT_PERMISSIONS',
    );
    const copies = await client.items.list({ filter: { type: record.item_type.id } });
    assert.deepEqual(
      copies.map((copy) => copy.id),
      [record.id],
      'no copy made',
    );
  });

  test('restoring a version judges the stage its transaction finds', async () => {
    const record = await recordInWorkflow();
    await client.items.update(record.id, {});
    const editor = await clientWith([
      itemPermission('read'),
      itemPermission('update', { on_stage: 'drafting' }),
    ]);
    const before = await client.items.find(record.id);
    await rejectsWithApiError(
      raceTheLock(
        server.db,
        () => editor.itemVersions.restore(record.meta.current_version),
        movedInPlace(record.id, 'in_review'),
      ),
      'INSUFFICIENT_PERMISSIONS',
    );
    const after = await client.items.find(record.id);
    assert.equal(after.meta.current_version, before.meta.current_version, 'not restored');
  });

  test('scheduling, and cancelling a schedule, judge the stage their transaction finds', async () => {
    const record = await recordInWorkflow();
    const publisher = await clientWith([
      itemPermission('read'),
      itemPermission('publish', { on_stage: 'drafting' }),
    ]);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await rejectsWithApiError(
      raceTheLock(
        server.db,
        () => publisher.scheduledPublication.create(record.id, { publication_scheduled_at: at }),
        movedInPlace(record.id, 'in_review'),
      ),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.equal((await client.items.find(record.id)).meta.publication_scheduled_at, null);

    const other = await client.items.create({ item_type: record.item_type });
    await client.scheduledUnpublishing.create(other.id, { unpublishing_scheduled_at: at });
    await rejectsWithApiError(
      raceTheLock(
        server.db,
        () => publisher.scheduledUnpublishing.destroy(other.id),
        movedInPlace(other.id, 'in_review'),
      ),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.equal((await client.items.find(other.id)).meta.unpublishing_scheduled_at, at);
  });
});
