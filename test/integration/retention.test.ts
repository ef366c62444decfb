import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/client.ts';
import { loadScope, qualifiedTable } from '../../src/db/environment-scope.ts';
import { pruneOnce } from '../../src/retention/prune-runner.ts';
import { eventually, insertWebhook, LOOPBACK } from '../support/delivery-fixtures.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  buildWebhook,
  itemTypeRef,
} from '../support/factories.ts';
import { useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

// Versions, events and webhook calls are kept for their retention period, no longer, and
// stored compactly: growth is measured as the tables' size on disk (pg_total_relation_size),
// and time is moved by backdating rows, never by waiting. Pruning runs through pruneOnce,
// the pass a worker runs on its schedule (whose own passes are pushed a day away here).

const VALUE_BYTES = 900_000;
const DAY_MS = 86_400_000;

/** Random base64: text PostgreSQL cannot compress, as a large upload-like value is. */
function largeText(bytes = VALUE_BYTES): string {
  return randomBytes(Math.ceil((bytes * 3) / 4))
    .toString('base64')
    .slice(0, bytes);
}

async function primaryTable(db: Db, table: string): Promise<string> {
  const scope = await loadScope(db);
  return `${scope.environment.schemaName}.${table}`;
}

/** The tables' size on disk, indexes and TOAST included. */
async function bytesOf(db: Db, tables: string[]): Promise<number> {
  let total = 0;
  for (const table of tables) {
    const { rows } = await sql<{ bytes: string }>`
      SELECT pg_total_relation_size(${table}::regclass) AS bytes`.execute(db);
    total += Number(rows[0]?.bytes);
  }
  return total;
}

/** What autovacuum does on PostgreSQL (and the embedded engine's own loop): space reused. */
async function vacuum(db: Db, tables: string[]): Promise<void> {
  for (const table of tables) await sql`VACUUM ${sql.raw(table)}`.execute(db);
}

describe('retention', () => {
  const server = useTestServer({ webhookAllow: LOOPBACK, pruneIntervalMs: DAY_MS });
  const client = server.client();
  const receiver = useReceiver();
  const retention = () => server.config;

  test('repeated large updates keep versions and events within their retention', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    await buildField(client, { itemTypeId: model.id, api_key: 'body', field_type: 'text' });
    const body = largeText();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'v0',
      body,
    });
    const versionTables = [
      await primaryTable(server.db, 'item_versions'),
      await primaryTable(server.db, 'item_version_parts'),
    ];
    const eventTables = ['public.events'];
    const settle = async () => {
      await pruneOnce(server.db, retention());
      await vacuum(server.db, [...versionTables, ...eventTables]);
      return {
        versions: await bytesOf(server.db, versionTables),
        events: await bytesOf(server.db, eventTables),
      };
    };
    const updates = async (round: number) => {
      for (let n = 1; n <= 8; n++)
        await client.items.update(record.id, { title: `round ${round}, update ${n}` });
    };
    const start = await settle();
    await updates(1);
    const afterFirst = await settle();
    await updates(2);
    const afterSecond = await settle();

    // 16 saves, all within retention and all kept: the large value is stored once.
    assert.equal((await client.itemVersions.list(record.id)).length, 17);
    const versionGrowth = afterSecond.versions - start.versions;
    assert.ok(versionGrowth < VALUE_BYTES, `versions grew ${versionGrowth} bytes over 16 saves`);
    // No webhook wants these events: pruned, their space reused by the next round's.
    const eventGrowth = afterSecond.events - afterFirst.events;
    assert.ok(eventGrowth < VALUE_BYTES, `events grew ${eventGrowth} bytes over 8 saves`);
    const { rows } = await sql<{ events: string }>`
      SELECT count(*) AS events FROM events WHERE entity_id = ${record.id}`.execute(server.db);
    assert.equal(Number(rows[0]?.events), 0);
  });

  test('an update event stores the record once; its webhook still gets the whole previous state', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    await buildField(client, { itemTypeId: model.id, api_key: 'body', field_type: 'text' });
    await buildWebhook(client, {
      url: `${receiver.url}/previous`,
      events: [
        {
          entity_type: 'item',
          event_types: ['update'],
          filters: [{ entity_type: 'item_type', entity_ids: [model.id] }],
        },
      ],
    });
    const body = largeText();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'old',
      body,
    });
    await client.items.update(record.id, { title: 'new' });
    const { rows } = await sql<{ entity: number; previous: number }>`
      SELECT pg_column_size(entity) AS entity, pg_column_size(previous_entity) AS previous
      FROM events WHERE entity_id = ${record.id} AND event_type = 'update'`.execute(server.db);
    assert.ok(Number(rows[0]?.entity) > VALUE_BYTES / 2, 'the entity holds the record');
    assert.ok(Number(rows[0]?.previous) < 10_000, `previous state: ${rows[0]?.previous} bytes`);
    const [request] = await eventually(async () => {
      const received = receiver.requests.filter((r) => r.path === '/previous');
      return received.length > 0 && received;
    });
    const payload = JSON.parse(request?.body ?? '{}');
    assert.equal(payload.entity.attributes.title, 'new');
    assert.deepEqual(payload.previous_entity.attributes, { title: 'old', body });
    assert.equal(payload.previous_entity.id, record.id);
    // The delivery log keeps the request as it keeps responses: up to 64 KiB.
    const call = await eventually(() =>
      server.db
        .selectFrom('webhook_calls')
        .select(['status', 'request_payload'])
        .where('event_id', 'in', (eb) =>
          eb.selectFrom('events').select('id').where('entity_id', '=', record.id),
        )
        .executeTakeFirst()
        .then((row) => row?.status === 'success' && row),
    );
    assert.equal(call.request_payload, request?.body.slice(0, 64 * 1024));
  });

  test('versions read exactly as saved, blocks included, after compaction and pruning', async () => {
    const block = await buildBlockModel(client);
    await buildField(client, { itemTypeId: block.id, api_key: 'body', field_type: 'text' });
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    await buildField(client, { itemTypeId: model.id, api_key: 'body', field_type: 'text' });
    await buildModularContentField(client, {
      itemTypeId: model.id,
      api_key: 'sections',
      blockIds: [block.id],
    });
    const section = (title: string) =>
      blockInRequest({ itemTypeId: block.id, attributes: { title, body: largeText(2_000) } });
    const saved: { values: Record<string, unknown>; nested: Record<string, unknown> }[] = [];
    const remember = async (record: { id: string }) => {
      const current = await client.items.find(record.id);
      const nested = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
      const pick = (item: Record<string, unknown>) => ({
        title: item.title,
        body: item.body,
        sections: item.sections,
      });
      saved.push({ values: pick(current), nested: pick(nested) });
    };
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'first',
      body: largeText(20_000),
      sections: [section('a'), section('b')],
    });
    await remember(record);
    const [a, b] = record.sections as string[];
    await client.items.update(record.id, { title: 'second' });
    await remember(record);
    await client.items.update(record.id, {
      sections: [a, blockInRequest({ id: b, attributes: { body: largeText(2_000) } })],
    });
    await remember(record);
    await client.items.update(record.id, { sections: [b, section('c')] });
    await remember(record);
    await client.items.update(record.id, { body: largeText(20_000) });
    await remember(record);

    const readBack = async () => {
      const versions = (await client.itemVersions.list(record.id)).reverse();
      return versions.map((version) => ({
        id: version.id,
        values: { title: version.title, body: version.body, sections: version.sections },
      }));
    };
    const before = await readBack();
    assert.deepEqual(
      before.map((version) => version.values),
      saved.map((save) => save.values),
    );
    // The first two versions leave retention: what the others share with them stays.
    const ids = before.map((version) => version.id);
    await sql`
      UPDATE ${qualifiedTable((await loadScope(server.db)).environment.schemaName, 'item_versions')}
      SET created_at = created_at - interval '400 days'
      WHERE id = any(${ids.slice(0, 2)}::text[])`.execute(server.db);
    await pruneOnce(server.db, retention());
    const after = await readBack();
    assert.deepEqual(after, before.slice(2));
    for (const [index, version] of after.entries()) {
      assert.deepEqual(
        await client.itemVersions.find(version.id).then((v) => v.body),
        saved[index + 2]?.values.body,
      );
    }
    // Restoring a compacted version brings back its blocks' content (block `a` anew).
    await client.itemVersions.restore(after[0]?.id ?? '');
    const restored = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
    const content = (sections: unknown) =>
      (sections as { attributes: { title: string; body: string } }[]).map((node) => [
        node.attributes.title,
        node.attributes.body,
      ]);
    const expected = content(saved[2]?.nested.sections);
    assert.deepEqual(
      expected.map(([title, body]) => [title, body?.length]),
      [
        ['a', 2_000],
        ['b', 2_000],
      ],
    );
    assert.deepEqual(content(restored.sections), expected);
    assert.equal(restored.body, saved[2]?.values.body);
  });

  test('pruning never drops an undelivered event, a version within retention or a current one', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    receiver.reply = (request) => ({ status: request.path === '/failing' ? 500 : 200 });
    const hook = (path: string) =>
      buildWebhook(client, {
        url: `${receiver.url}${path}`,
        auto_retry: true,
        events: [
          {
            entity_type: 'item',
            event_types: ['create', 'update'],
            filters: [{ entity_type: 'item_type', entity_ids: [model.id] }],
          },
        ],
      });
    const delivered = await hook('/delivered');
    const failing = await hook('/failing');
    // A record saved four times, published at its first version.
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'one' });
    await client.items.publish(record.id);
    for (const title of ['two', 'three', 'four']) await client.items.update(record.id, { title });
    // Another record, whose only version is its current one.
    const lone = await client.items.create({ item_type: itemTypeRef(model.id), title: 'lone' });
    const calls = await eventually(async () => {
      const all = await server.db
        .selectFrom('webhook_calls')
        .selectAll()
        .where('webhook_id', 'in', [delivered.id, failing.id])
        .execute();
      return all.length === 10 && all.every((call) => call.status !== 'pending') && all;
    });
    // A call queued and not yet due: pending, never attempted.
    const waiting = await insertWebhook(server.db, { url: `${receiver.url}/waiting` });
    const waitingEvent = await sql<{ id: string }>`
      INSERT INTO events (environment, entity_type, event_type, entity_id, entity)
      VALUES ('main', 'item_type', 'create', 'x', '{}') RETURNING id`.execute(server.db);
    const eventId = waitingEvent.rows[0]?.id ?? '';
    await sql`
      INSERT INTO webhook_calls (webhook_id, event_id, entity_type, event_type, due_at)
      VALUES (${waiting}, ${eventId}, 'item_type', 'create', now() + interval '1 day')`.execute(
      server.db,
    );

    // Everything leaves retention: versions, calls and their attempts.
    const loneVersions = (await client.itemVersions.list(lone.id)).map((version) => version.id);
    const schema = (await loadScope(server.db)).environment.schemaName;
    await sql`
      UPDATE ${qualifiedTable(schema, 'item_versions')}
      SET created_at = created_at - interval '400 days'
      WHERE item_id = any(${[record.id, lone.id]}::text[])`.execute(server.db);
    await sql`
      UPDATE webhook_calls SET created_at = created_at - interval '400 days',
        last_sent_at = last_sent_at - interval '400 days'
      WHERE webhook_id = any(${[delivered.id, failing.id, waiting]}::bigint[])`.execute(server.db);
    // One more save, within retention, and its calls, within the log's.
    await client.items.update(record.id, { title: 'five' });
    await eventually(async () => {
      const fresh = await server.db
        .selectFrom('webhook_calls')
        .select('status')
        .where('webhook_id', '=', delivered.id)
        .where('created_at', '>', new Date(Date.now() - DAY_MS))
        .execute();
      return fresh.length === 1 && fresh[0]?.status === 'success';
    });

    // Several workers' passes at once: each row is pruned once, and none fails.
    const passes = await Promise.all([1, 2, 3].map(() => pruneOnce(server.db, retention())));
    const pruned = (key: 'webhookCalls' | 'versions') =>
      passes.reduce((sum, pass) => sum + pass[key], 0);
    const kept = await client.itemVersions.list(record.id);
    const current = (await client.items.find(record.id)).meta.current_version;
    // Published (`one`), the save within retention (`five`, current); `two`…`four` go.
    assert.deepEqual(kept.map((version) => version.title).sort(), ['five', 'one']);
    assert.ok(kept.some((version) => version.id === current));
    assert.equal(pruned('versions'), 3);
    assert.deepEqual(
      (await client.itemVersions.list(lone.id)).map((version) => version.id),
      loneVersions,
    );

    // The delivered calls past retention went, with their attempts; the failing webhook's
    // calls wait for their retries, and the one not yet due waits too: all kept, events too.
    const left = await server.db
      .selectFrom('webhook_calls')
      .selectAll()
      .where('webhook_id', 'in', [delivered.id, failing.id, waiting])
      .execute();
    const deliveredOld = calls.filter((call) => call.webhook_id === delivered.id);
    assert.equal(pruned('webhookCalls'), deliveredOld.length);
    for (const call of deliveredOld)
      assert.ok(!left.some((row) => row.id === call.id), `delivered call ${call.id} pruned`);
    const undelivered = left.filter((row) => row.webhook_id !== delivered.id);
    assert.equal(undelivered.length, 7);
    assert.ok(undelivered.every((call) => call.status !== 'success'));
    const events = await server.db.selectFrom('events').select('id').execute();
    for (const call of left)
      assert.ok(
        events.some((event) => event.id === call.event_id),
        `event of call ${call.id}`,
      );
    const attempts = await server.db
      .selectFrom('webhook_call_attempts')
      .select('webhook_call_id')
      .where(
        'webhook_call_id',
        'in',
        deliveredOld.map((call) => call.id),
      )
      .execute();
    assert.deepEqual(attempts, [], 'the pruned calls took their attempts along');
  });
});

describe('a worker prunes on its schedule', () => {
  const server = useTestServer({ pruneIntervalMs: 100 });
  const client = server.client();

  test('events no webhook wants are pruned by the worker', async () => {
    await buildModel(client);
    await eventually(async () => {
      const { rows } = await sql<{ events: string }>`
        SELECT count(*) AS events FROM events`.execute(server.db);
      return Number(rows[0]?.events) === 0;
    });
  });
});
