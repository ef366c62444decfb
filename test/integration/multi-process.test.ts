import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { buildClient, type Client } from '@datocms/cma-client-node';
import { type Db, openDatabase } from '../../src/db/client.ts';
import { apiError } from '../support/api-errors.ts';
import {
  createTestDatabase,
  postgresUrl,
  TEST_ENGINE,
  withAdminClient,
} from '../support/databases.ts';
import { eventually } from '../support/delivery-fixtures.ts';
import { buildWebhook } from '../support/factories.ts';
import { type FieldhouseProcess, runFieldhouse } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';

const ADMIN_TOKEN = 'multi-process-admin-token-0001';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function start(role: 'api' | 'worker', env: Record<string, string>): FieldhouseProcess {
  const run = runFieldhouse(['serve', '--role', role], env);
  cleanups.push(() => run.stop());
  return run;
}

/** Waits until the process has started completely (token printed, worker running). */
async function started(run: FieldhouseProcess): Promise<string> {
  const url = await run.listening;
  await run.waitFor(/fieldhouse started/, 60_000);
  return url;
}

/** Sends SIGTERM to every process at once and returns their exit codes. */
async function terminate(processes: FieldhouseProcess[]): Promise<(number | null)[]> {
  for (const run of processes) run.child.kill('SIGTERM');
  return Promise.all(processes.map((run) => run.exited));
}

function clientOf(url: string): Client {
  return buildClient({ apiToken: ADMIN_TOKEN, baseUrl: url, autoRetry: false });
}

async function rowCount(db: Db, table: 'site' | 'roles' | 'access_tokens' | 'environments') {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const callIdOf = (body: string) =>
  (JSON.parse(body) as { webhook_call_id: string }).webhook_call_id;

if (TEST_ENGINE === 'embedded') {
  describe('several processes on the embedded database', () => {
    test('a second process on the same data dir is refused, whatever its role', async () => {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      if (database.engine !== 'embedded') throw new Error('unreachable');
      const env = { FIELDHOUSE_DATA_DIR: database.dataDir };
      const api = start('api', env);
      await api.listening;
      const worker = runFieldhouse(['serve', '--role', 'worker'], env);
      assert.equal(await worker.exited, 78, worker.output());
      assert.match(worker.output(), /in use by process \d+/);
      assert.deepEqual(await terminate([api]), [0]);
    });
  });
} else {
  describe('2 API + 2 worker processes on one PostgreSQL', () => {
    test('writes through both APIs agree, each event is delivered once, by a worker, and SIGTERM drains', async () => {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      if (database.engine !== 'postgres') throw new Error('unreachable');
      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      let delayMs = 0;
      receiver.reply = () => ({ status: 200, body: 'ok', delayMs });
      const env = {
        DATABASE_URL: database.url,
        FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
        FIELDHOUSE_WEBHOOK_ALLOW: '127.0.0.1/32',
        FIELDHOUSE_DB_POOL_SIZE: '4',
      };
      const apis = [start('api', env), start('api', env)];
      const workers = [start('worker', env), start('worker', env)];
      const all = [...apis, ...workers];
      const [api1, api2, worker1, worker2] = await Promise.all(all.map(started));
      const handle = await openDatabase({ databaseUrl: database.url, dataDir: '', dbPoolSize: 2 });
      cleanups.push(() => handle.close());
      const db = handle.db;

      // Four processes bootstrapped the same empty project at once: exactly one created it.
      assert.equal(all.filter((run) => /project created/.test(run.output())).length, 1);
      for (const table of ['site', 'access_tokens', 'environments'] as const) {
        assert.equal(await rowCount(db, table), 1, table);
      }
      assert.equal(await rowCount(db, 'roles'), 2, 'roles: Admin and Editor');

      // A worker answers probes and metrics, and nothing of the API.
      for (const url of [worker1, worker2]) {
        for (const path of ['/healthz', '/readyz', '/metrics']) {
          assert.equal((await fetch(`${url}${path}`)).status, 200, path);
        }
        assert.match(
          await (await fetch(`${url}/metrics`)).text(),
          /fieldhouse_webhook_queue_depth/,
        );
        const site = await fetch(`${url}/site`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'application/json' },
        });
        assert.equal(site.status, 404);
      }
      for (const run of workers) assert.match(run.output(), /delivery worker started/);
      for (const run of apis) assert.doesNotMatch(run.output(), /delivery worker started/);

      const clients = [clientOf(api1 ?? ''), clientOf(api2 ?? '')] as const;
      const via = (i: number) => clients[i % 2] as Client;
      const webhook = await buildWebhook(clients[0], {
        url: `${receiver.url}/hook`,
        events: [{ entity_type: 'item_type', event_types: ['create', 'update', 'delete'] }],
      });
      assert.equal((await clients[1].webhooks.find(webhook.id)).url, `${receiver.url}/hook`);

      // 20 creates and 30 updates, alternating between the APIs, 10 at a time.
      const models = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          via(i).itemTypes.create({ name: `Model ${i}`, api_key: `model${i}` }),
        ),
      );
      for (let round = 0; round < 3; round++) {
        await Promise.all(
          Array.from({ length: 10 }, (_, j) => {
            const i = round * 10 + j;
            const model = models[i % 20];
            assert.ok(model);
            return via(i + round).itemTypes.update(model.id, { hint: `hint ${i}` });
          }),
        );
      }
      // The same api_key through both APIs at once: one wins, the other is a clean 422.
      for (let race = 0; race < 3; race++) {
        const outcomes = await Promise.allSettled(
          clients.map((client, i) =>
            client.itemTypes.create({ name: `Race ${race} ${i}`, api_key: `race${race}` }),
          ),
        );
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
        const loser = outcomes.find((o) => o.status === 'rejected');
        assert.ok(loser?.status === 'rejected');
        const error = apiError(loser.reason);
        assert.equal(error.response.status, 422);
        assert.ok(
          error.findError('INVALID_FIELD', { field: 'api_key', code: 'VALIDATION_UNIQUENESS' }),
          JSON.stringify(error.errors),
        );
      }

      // Both APIs read the same state, and it is the state the writes made.
      const [list1, list2] = await Promise.all(clients.map((client) => client.itemTypes.list()));
      assert.deepEqual(list1, list2);
      const byKey = new Map(list1?.map((model) => [model.api_key, model]));
      assert.equal(byKey.size, 23);
      for (let m = 0; m < 20; m++) {
        const last = m < 10 ? 20 + m : m;
        assert.equal(byKey.get(`model${m}`)?.hint, `hint ${last}`, `model${m}`);
      }
      for (let race = 0; race < 3; race++) assert.ok(byKey.has(`race${race}`));

      // 20 creates + 30 updates + 3 race winners: one call each, each delivered once.
      const expectedCalls = 53;
      await receiver.waitForRequests(expectedCalls, 30_000);
      const calls = await eventually(async () => {
        const rows = await db.selectFrom('webhook_calls').select(['id', 'status']).execute();
        return rows.length === expectedCalls && rows.every((row) => row.status === 'success')
          ? rows
          : undefined;
      }, 30_000);
      const received = new Map<string, number>();
      for (const request of receiver.requests) {
        const id = callIdOf(request.body);
        received.set(id, (received.get(id) ?? 0) + 1);
      }
      assert.equal(receiver.requests.length, expectedCalls);
      assert.deepEqual([...received.keys()].sort(), calls.map((call) => call.id).sort());
      assert.ok([...received.values()].every((count) => count === 1));

      // Only the worker processes delivered (a worker's name is host:pid:random).
      const workerPids = new Set(workers.map((run) => String(run.child.pid)));
      const attempts = await db.selectFrom('webhook_call_attempts').select('worker').execute();
      assert.equal(attempts.length, expectedCalls);
      for (const { worker } of attempts) {
        assert.ok(workerPids.has(worker.split(':').at(-2) ?? ''), worker);
      }

      // SIGTERM while a slow delivery is in flight: it finishes and records before the exit.
      delayMs = 2000;
      await clients[1].itemTypes.update(models[0]?.id ?? '', { hint: 'slow' });
      const [slow] = (await receiver.waitForRequests(expectedCalls + 1)).slice(expectedCalls);
      assert.ok(slow);
      const slowCallId = callIdOf(slow.body);
      assert.deepEqual(await terminate(all), [0, 0, 0, 0]);
      // The receiver answers delayMs after the request arrived, whenever SIGTERM was sent.
      assert.ok(
        Date.now() - slow.receivedAt >= delayMs,
        'the worker waited for the in-flight delivery before exiting',
      );
      for (const run of all) {
        assert.match(run.output(), /"signal":"SIGTERM".*shutting down/);
        assert.match(run.output(), /database closed/);
        assert.match(run.output(), /shutdown complete/);
      }
      const slowCall = await db
        .selectFrom('webhook_calls')
        .selectAll()
        .where('id', '=', slowCallId)
        .executeTakeFirstOrThrow();
      assert.equal(slowCall.status, 'success');
      assert.equal(slowCall.response_status, 200);
      assert.equal(slowCall.lease_owner, null, 'the lease was released');
      const slowAttempts = await db
        .selectFrom('webhook_call_attempts')
        .select(['outcome', 'duration_ms'])
        .where('webhook_call_id', '=', slowCallId)
        .execute();
      assert.equal(slowAttempts.length, 1);
      assert.equal(slowAttempts[0]?.outcome, 'success');
      assert.ok((slowAttempts[0]?.duration_ms ?? 0) >= 1900);
      assert.equal(receiver.requests.length, expectedCalls + 1, 'nothing was sent twice');
      const leased = await db
        .selectFrom('webhook_calls')
        .select('id')
        .where('lease_owner', 'is not', null)
        .execute();
      assert.deepEqual(leased, [], 'no lease is left behind');
    });

    test('four processes starting at once on an empty database migrate and bootstrap it once', async () => {
      const name = `fieldhouse_test_${randomBytes(6).toString('hex')}`;
      await withAdminClient((client) => client.query(`CREATE DATABASE ${name}`));
      cleanups.push(() =>
        withAdminClient(async (client) => {
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        }),
      );
      const env = { DATABASE_URL: postgresUrl(name), FIELDHOUSE_DB_POOL_SIZE: '2' };
      const all = [
        start('api', env),
        start('api', env),
        start('worker', env),
        start('worker', env),
      ];
      const urls = await Promise.all(all.map(started));
      const creators = all.filter((run) => /API token:\s+\S+/.test(run.output()));
      assert.equal(creators.length, 1, 'exactly one process created the project');
      const token = /API token:\s+(\S+)/.exec(creators[0]?.output() ?? '')?.[1] ?? '';
      for (const url of urls.slice(0, 2)) {
        const client = buildClient({ apiToken: token, baseUrl: url, autoRetry: false });
        assert.deepEqual((await client.site.find()).locales, ['en']);
        assert.deepEqual((await client.roles.list()).map((role) => role.name).sort(), [
          'Admin',
          'Editor',
        ]);
        assert.equal((await client.accessTokens.list()).length, 1);
      }
      assert.deepEqual(await terminate(all), [0, 0, 0, 0]);
    });
  });
}
