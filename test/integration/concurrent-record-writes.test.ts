import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ENVIRONMENT_LOCK_KEY } from '../../src/db/environment-locks.ts';
import { apiError } from '../support/api-errors.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { completesBeside, raceAChange, raceTheLock } from '../support/environment-lock.ts';
import { buildField, buildModel, buildRecord, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// Record changes to one environment run concurrently (they hold its lock shared): what they
// must exclude among themselves (a unique value, a record, a link's target, a singleton's
// record, a sortable model's positions) stays exact when they race (src/db/README.md).

const server = useTestServer();
const client = server.client();
const RACERS = 8;

/** Each outcome of calls started together: the value, or the api_error code it failed with. */
async function together<T>(calls: (() => Promise<T>)[]): Promise<(T | string)[]> {
  const settled = await Promise.allSettled(calls.map((call) => call()));
  return settled.map((outcome) =>
    outcome.status === 'fulfilled'
      ? outcome.value
      : String(apiError(outcome.reason).errors[0]?.attributes.code),
  );
}

const failures = (outcomes: unknown[]) => outcomes.filter((o) => typeof o === 'string');

test('creates racing with the same unique value: one is stored, the others are refused', async () => {
  const model = await buildModel(client);
  const field = await buildField(client, { itemTypeId: model.id, validators: { unique: {} } });
  for (const value of ['first', 'second']) {
    const outcomes = await together(
      Array.from(
        { length: RACERS },
        () => () =>
          client.items.create({ item_type: itemTypeRef(model.id), [field.api_key]: value }),
      ),
    );
    assert.deepEqual(failures(outcomes), Array(RACERS - 1).fill('INVALID_FIELD'));
  }
  assert.equal((await client.items.list({ filter: { type: model.id } })).length, 2);
});

test('updates racing on one record from the same version: one applies, the others are stale', async () => {
  const record = await buildRecord(client);
  const outcomes = await together(
    Array.from(
      { length: RACERS },
      (_, i) => () =>
        client.items.update(record.id, {
          title: `racer ${i}`,
          meta: { current_version: record.meta.current_version },
        }),
    ),
  );
  assert.deepEqual(failures(outcomes), Array(RACERS - 1).fill('STALE_ITEM_VERSION'));
  assert.equal((await client.itemVersions.list(record.id)).length, 2);
});

test('creates racing on a singleton model: one record', async () => {
  const model = await buildModel(client, { singleton: true });
  const outcomes = await together(
    Array.from(
      { length: RACERS },
      () => () => client.items.create({ item_type: itemTypeRef(model.id) }),
    ),
  );
  assert.deepEqual(failures(outcomes), Array(RACERS - 1).fill('ITEM_TYPE_IS_SINGLETON'));
  const [stored, ...more] = await client.items.list({ filter: { type: model.id } });
  assert.equal(more.length, 0);
  assert.equal((await client.itemTypes.find(model.id)).singleton_item?.id, stored?.id);
});

test('creates racing on a sortable model: each gets a position of its own', async () => {
  const model = await buildModel(client, { sortable: true });
  await together(
    Array.from(
      { length: RACERS },
      () => () => client.items.create({ item_type: itemTypeRef(model.id) }),
    ),
  );
  const positions = (await client.items.list({ filter: { type: model.id } }))
    .map((record) => record.position)
    .sort((a, b) => Number(a) - Number(b));
  assert.deepEqual(
    positions,
    Array.from({ length: RACERS }, (_, i) => i + 1),
  );
});

test('a link to a record whose destroy commits first is refused: no link to a missing record', async () => {
  const target = await buildRecord(client);
  const model = await buildModel(client);
  const link = await buildField(client, {
    itemTypeId: model.id,
    field_type: 'link',
    validators: { item_item_type: { item_types: [target.item_type.id] } },
  });
  const linking = raceAChange(
    server.db,
    async (tx) => {
      await tx.db.deleteFrom('items').where('id', '=', target.id).execute();
    },
    () => client.items.create({ item_type: itemTypeRef(model.id), [link.api_key]: target.id }),
  );
  await assert.rejects(linking, (error) => {
    assert.ok(apiError(error).findError('INVALID_FIELD'), String(error));
    return true;
  });
  assert.deepEqual(await client.items.list({ filter: { type: model.id } }), []);
});

test('a record change waits for a schema change in progress, then writes under its schema', async () => {
  const model = await buildModel(client);
  const title = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const other = await buildField(client, { itemTypeId: model.id });
  const create = raceTheLock(
    server.db,
    () => client.items.create({ item_type: itemTypeRef(model.id), [title.api_key]: 'x' }),
    async (tx) => {
      await tx.db
        .updateTable('fields')
        .set({ validators: JSON.stringify({ required: {} }) })
        .where('id', '=', other.id)
        .execute();
    },
  );
  await assert.rejects(create, (error) => {
    assert.ok(apiError(error).findError('INVALID_FIELD'), String(error));
    return true;
  });
});

// The embedded engine is one connection: its transactions run one after another anyway.
if (TEST_ENGINE === 'postgres') {
  test('PostgreSQL: a record change goes on beside another one in progress', async () => {
    const busy = await buildRecord(client);
    const other = await buildRecord(client);
    const completed = await completesBeside(
      server.db,
      async (tx) => {
        // What a record change holds until it commits: the lock shared, its record's row,
        // its records-version slot.
        await sql`SELECT * FROM enter_records(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(tx.environment.number)})`.execute(
          tx.project,
        );
        await tx.db
          .updateTable('items')
          .set({ updated_at: new Date() })
          .where('id', '=', busy.id)
          .execute();
      },
      () => client.items.update(other.id, { title: 'beside' }),
    );
    assert.ok(completed, 'the second record change waited for the first');
    assert.equal((await client.items.find(other.id)).title, 'beside');
  });

  test('PostgreSQL: a record create goes on beside another create of the same model in progress', async () => {
    const model = await buildModel(client);
    const title = await buildField(client, { itemTypeId: model.id });
    const completed = await completesBeside(
      server.db,
      async (tx) => {
        // A create of the model, uncommitted: it has added to the model's kept count
        // (environment migration 0018), in its own backend's slot.
        await sql`SELECT * FROM enter_records(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(tx.environment.number)})`.execute(
          tx.project,
        );
        await tx.db
          .insertInto('items')
          .values({
            id: 'held-create',
            item_type_id: model.id,
            item_values: JSON.stringify({}),
            status: 'draft',
            current_version_id: 'held-create-version',
          })
          .execute();
      },
      () => client.items.create({ item_type: itemTypeRef(model.id), [title.api_key]: 'beside' }),
    );
    assert.ok(completed, 'the second create waited for the first');
    const listed = await client.items.rawList({ filter: { type: model.id } });
    assert.equal(listed.meta.total_count, 1, 'the rolled-back create is not counted');
  });
}
