import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { loadScope } from '../../src/db/environment-scope.ts';
import { apiError } from '../support/api-errors.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { seedRecords, seedSchema } from '../support/seed-schema.ts';
import { useTestServer } from '../support/server.ts';

// A primary big enough (9,000 fields, 3,000 records) that a fork is still copying when
// the requests a test sends right after starting it are answered, on either engine.
const MODELS = 300;
const FIELDS = 30;
const RECORDS = 3_000;

const server = useTestServer();
const admin = server.client();
let side: Client;
let modelId: string;
before(async () => {
  // Forked before the primary grows: requests there stay small.
  await admin.environments.fork('main', { id: 'side' });
  side = server.client({ environment: 'side' });
  await seedSchema(server.db, MODELS, FIELDS);
  await seedRecords(server.db, RECORDS, 5, FIELDS);
  modelId = (await buildModel(admin)).id;
  await buildField(admin, { itemTypeId: modelId, api_key: 'title' });
});

/** Polls until the environment is ready; returns the progress figures seen meanwhile. */
async function untilReady(id: string): Promise<number[]> {
  const seen: number[] = [];
  for (;;) {
    const { meta } = await admin.environments.find(id);
    if (meta.status === 'ready') return seen;
    assert.equal(meta.status, 'creating');
    assert.equal(typeof meta.fork_completion_percentage, 'number');
    seen.push(meta.fork_completion_percentage as number);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Rows of an environment's records and versions, counted in its own tables. */
async function recordRows(environmentId: string): Promise<{ items: number; versions: number }> {
  const scope = await loadScope(server.db, environmentId);
  const count = async (table: 'items' | 'item_versions') =>
    Number(
      (
        await scope.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { items: await count('items'), versions: await count('item_versions') };
}

test('during a fork other environments are served, and writes to the source never land half in the copy', async () => {
  const started = await admin.environments.fork(
    'main',
    { id: 'snapshot' },
    { immediate_return: true },
  );
  assert.equal(started.meta.status, 'creating');

  // Another environment: a write and a read complete while the fork is still copying.
  const sideModel = await buildModel(side);
  assert.ok((await side.itemTypes.list()).some((model) => model.id === sideModel.id));
  assert.equal((await admin.environments.find('snapshot')).meta.status, 'creating');

  // Writes to the source meanwhile (each a record and its first version, two tables
  // the copy takes one after the other).
  const writes = Promise.all(
    [1, 2, 3].map((i) => admin.items.create({ item_type: itemTypeRef(modelId), title: `w${i}` })),
  );
  const seen = await untilReady('snapshot');
  const written = await writes;

  assert.deepEqual(
    seen,
    [...seen].sort((a, b) => a - b),
    'progress never goes back',
  );
  assert.ok(seen.every((percentage) => percentage >= 0 && percentage <= 100));
  const copy = server.client({ environment: 'snapshot' });
  for (const record of written) {
    assert.equal((await admin.items.find(record.id)).title, record.title, 'kept in the source');
  }
  const landed = await Promise.all(
    written.map((record) =>
      copy.items.find(record.id).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (server.config.databaseUrl === null) {
    // Embedded: the copy runs in steps and the source's writes wait for it to end.
    assert.deepEqual(landed, [false, false, false], 'the writes waited for the copy');
  }
  // Either engine: the copy is one snapshot, each write is in it whole or not at all.
  const rows = await recordRows('snapshot');
  assert.equal(rows.items, RECORDS + landed.filter(Boolean).length);
  assert.equal(rows.versions, rows.items, 'every copied record has its version, and only those');
  await admin.environments.destroy('snapshot');
});

test('a fast fork makes the source read-only (423) until the copy ends; other environments stay writable', async () => {
  const started = await admin.environments.fork(
    'main',
    { id: 'fast-copy' },
    { immediate_return: true, fast: true },
  );
  assert.equal(started.meta.status, 'creating');
  assert.equal((await admin.environments.find('main')).meta.read_only_mode, true);
  await assert.rejects(
    admin.items.create({ item_type: itemTypeRef(modelId), title: 'refused' }),
    (error) => {
      assert.equal(apiError(error).response.status, 423);
      assert.ok(apiError(error).findError('ENVIRONMENT_IN_READ_ONLY_MODE'));
      return true;
    },
  );
  await buildModel(side);
  assert.equal((await admin.environments.find('fast-copy')).meta.status, 'creating');

  await untilReady('fast-copy');
  assert.equal((await admin.environments.find('main')).meta.read_only_mode, false);
  const accepted = await admin.items.create({ item_type: itemTypeRef(modelId), title: 'accepted' });
  assert.equal(accepted.title, 'accepted');
  await admin.environments.destroy('fast-copy');
});
