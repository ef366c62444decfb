import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildClient } from '@datocms/cma-client-node';
import { openDatabase } from '../../src/db/client.ts';
import { loadScope } from '../../src/db/environment-scope.ts';
import {
  createTestDatabase,
  databaseConfig,
  TEST_ENGINE,
  type TestDatabase,
} from '../support/databases.ts';
import {
  type FieldhouseProcess,
  isRunning,
  PROCESS_WAIT_MS,
  runFieldhouse,
  waitForChildProcess,
  waitForExit,
} from '../support/process.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function databaseEnv(): Promise<Record<string, string>> {
  return (await testDatabase()).env;
}

async function testDatabase(): Promise<{ database: TestDatabase; env: Record<string, string> }> {
  const database: TestDatabase = await createTestDatabase();
  cleanups.push(() => database.drop());
  const env: Record<string, string> =
    database.engine === 'postgres'
      ? { DATABASE_URL: database.url }
      : { FIELDHOUSE_DATA_DIR: database.dataDir };
  return { database, env };
}

const ADMIN_TOKEN = 'ci-known-admin-token-0002';

function serveStarted(args: string[], env: Record<string, string>): FieldhouseProcess {
  const run = runFieldhouse(['serve', ...args], { ...env, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN });
  cleanups.push(() => run.stop());
  return run;
}

/** Waits until initdb has written something into a data directory it builds under `cacheDir`. */
async function waitForInitWrites(cacheDir: string): Promise<void> {
  const deadline = Date.now() + PROCESS_WAIT_MS;
  const found = () => {
    try {
      return readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).some((path) =>
        /^pglite-[^/]*\.init-\d+\//.test(path),
      );
    } catch {
      return false; // a directory vanished while it was read: look again
    }
  };
  while (!found()) {
    if (Date.now() > deadline) throw new Error(`initdb wrote nothing under ${cacheDir}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A new, empty temporary directory, removed after the tests. */
function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fieldhouse-cli-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Whether a new TCP connection to the server's port is accepted. */
function acceptsConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A model creation whose body arrives only when `finish()` is called: a request that
 * is in flight for as long as the test wants. It asks for `100 Continue`, which the
 * server sends once it has accepted the connection and read the headers: from then on
 * the request is the server's, however long a loaded machine took to get there.
 */
function slowCreate(url: string, apiKey: string) {
  const body = JSON.stringify({
    data: { type: 'item_type', attributes: { name: apiKey, api_key: apiKey } },
  });
  const request = httpRequest(`${url}/item-types`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'x-api-version': '3',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const response = new Promise<number>((resolve, reject) => {
    request.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    request.once('error', reject);
  });
  response.catch(() => undefined);
  const started = new Promise<void>((resolve) =>
    request.once('continue', () => request.write(body.slice(0, 10), () => resolve())),
  );
  request.flushHeaders();
  return {
    /** Resolves once the server took the request and the start of the body is sent. */
    started,
    response,
    /** Sends the rest of the body: the server can then answer. */
    finish: () => request.end(body.slice(10)),
  };
}

async function itemTypeApiKeys(database: TestDatabase): Promise<string[]> {
  const handle = await openDatabase(databaseConfig(database));
  try {
    const rows = await (await loadScope(handle.db)).db
      .selectFrom('item_types')
      .select('api_key')
      .execute();
    return rows.map((row) => row.api_key);
  } finally {
    await handle.close();
  }
}

/** Starts a server with a slow request in flight and sends it SIGTERM. */
async function terminatingWithRequestInFlight() {
  const { database, env } = await testDatabase();
  const server = serveStarted([], env);
  const url = await server.listening;
  await server.waitFor(/fieldhouse started/);
  const slow = slowCreate(url, 'slow');
  await slow.started;
  server.child.kill('SIGTERM');
  await server.waitFor(/shutting down/);
  return { database, server, url, slow };
}

describe('the fieldhouse command line', () => {
  test('first start bootstraps the project and prints its admin token once', async () => {
    const env = await databaseEnv();
    const first = runFieldhouse(['serve'], env);
    cleanups.push(() => first.stop());
    const url = await first.listening;
    const token = (await first.waitFor(/API token:\s+(\S+)/))[1] ?? '';
    const client = buildClient({ apiToken: token, baseUrl: url, autoRetry: false });
    const site = await client.site.find();
    assert.deepEqual(site.locales, ['en']);
    await first.stop();

    const second = runFieldhouse(['serve'], env);
    cleanups.push(() => second.stop());
    await second.listening;
    assert.doesNotMatch(second.output(), /API token/, 'the token is printed only once');
    await second.stop();
  });

  test('FIELDHOUSE_ADMIN_TOKEN sets the admin token; token create makes more', async () => {
    const env = { ...(await databaseEnv()), FIELDHOUSE_ADMIN_TOKEN: 'ci-known-admin-token-0001' };
    const created = runFieldhouse(['token', 'create', '--name', 'CI'], env);
    assert.equal(await created.exited, 0, created.output());
    const extraToken = created.output().trim().split('\n').pop() ?? '';
    assert.match(extraToken, /^[A-Za-z0-9_-]{40}$/);

    const server = runFieldhouse(['serve'], env);
    cleanups.push(() => server.stop());
    const url = await server.listening;
    for (const apiToken of ['ci-known-admin-token-0001', extraToken]) {
      const client = buildClient({ apiToken, baseUrl: url, autoRetry: false });
      assert.deepEqual(await client.itemTypes.list(), []);
    }
  });

  test('a project created with FIELDHOUSE_ADMIN_TOKEN says so without printing the token', async () => {
    const server = serveStarted([], await databaseEnv());
    const url = await server.listening;
    await server.waitFor(/fieldhouse started/);
    assert.match(
      server.output(),
      /project created with the full-access API token from FIELDHOUSE_ADMIN_TOKEN/,
    );
    assert.ok(
      !server.output().includes(ADMIN_TOKEN),
      `the token is not printed:\n${server.output()}`,
    );
    const client = buildClient({ apiToken: ADMIN_TOKEN, baseUrl: url, autoRetry: false });
    assert.deepEqual(await client.itemTypes.list(), []);
  });

  test('npm start and the fieldhouse executable run the server with 4 MB semi-spaces', async () => {
    // V8's default young generation grows to 32 MB and stays resident; the flag keeps it at 8.
    const launchers = [
      { launcher: ['npm', 'start', '--silent'], args: [] },
      { launcher: ['bin/fieldhouse.js'], args: ['serve'] },
    ];
    for (const { launcher, args } of launchers) {
      const env = { ...(await databaseEnv()), HOME: process.env.HOME ?? '' };
      const server = runFieldhouse(args, env, launcher);
      cleanups.push(() => server.stop());
      await server.waitFor(/fieldhouse started/);
      const pid = Number(server.logRecords().find((r) => r.msg === 'fieldhouse started')?.pid);
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      assert.ok(commandLine.includes('--max-semi-space-size=4'), commandLine.join(' '));
      assert.ok(commandLine.includes('bin/fieldhouse.js'), commandLine.join(' '));
      // The server itself, not npm's shell: it stops on its own signal handling.
      process.kill(pid, 'SIGTERM');
      assert.equal(await server.exited, 0, server.output());
    }
  });

  test('invalid configuration stops the start and names the variable', async () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['DATABASE_URL', 'mysql://localhost/x'],
      ['FIELDHOUSE_ADMIN_TOKEN', 'short'],
      ['LOG_LEVEL', 'loud'],
    ] as const) {
      const run = runFieldhouse(['serve'], { [name]: value });
      assert.equal(await run.exited, 78);
      assert.match(run.output(), new RegExp(`Invalid configuration: ${name}`));
    }
  });

  test('--role and FIELDHOUSE_ROLE must name a role', async () => {
    const flag = runFieldhouse(['serve', '--role', 'cron'], {});
    assert.equal(await flag.exited, 64);
    assert.match(flag.output(), /--role must be one of api, worker, all \(got "cron"\)/);
    const variable = runFieldhouse(['serve'], { FIELDHOUSE_ROLE: 'cron' });
    assert.equal(await variable.exited, 78);
    assert.match(
      variable.output(),
      /Invalid configuration: FIELDHOUSE_ROLE must be one of api, worker, all/,
    );
    const unknown = runFieldhouse(['serve', '--roles', 'api'], {});
    assert.equal(await unknown.exited, 64);
    assert.match(unknown.output(), /Usage: fieldhouse serve \[--role api\|worker\|all\]/);
  });

  test('a worker process runs the delivery worker and answers only probes and metrics', async () => {
    const worker = serveStarted([], { ...(await databaseEnv()), FIELDHOUSE_ROLE: 'worker' });
    const url = await worker.listening;
    await worker.waitFor(/fieldhouse started/);
    assert.match(worker.output(), /delivery worker started/);
    assert.deepEqual(await (await fetch(`${url}/healthz`)).json(), {
      data: { type: 'health', id: 'live' },
    });
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    assert.match(await (await fetch(`${url}/metrics`)).text(), /fieldhouse_webhook_queue_depth/);
    const api = await fetch(`${url}/item-types`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'application/json' },
    });
    assert.equal(api.status, 404);
    assert.match(await api.text(), /INVALID_ENDPOINT/);
  });

  test('an API process serves the API without a worker; the flag beats FIELDHOUSE_ROLE', async () => {
    const server = serveStarted(['--role', 'api'], {
      ...(await databaseEnv()),
      FIELDHOUSE_ROLE: 'worker',
    });
    const url = await server.listening;
    await server.waitFor(/fieldhouse started/);
    const client = buildClient({ apiToken: ADMIN_TOKEN, baseUrl: url, autoRetry: false });
    assert.deepEqual(await client.itemTypes.list(), []);
    assert.match(server.output(), /"role":"api"/);
    assert.doesNotMatch(server.output(), /delivery worker started/);
    if (TEST_ENGINE === 'embedded') {
      assert.match(server.output(), /embedded database admits one process/);
    }
  });

  test('SIGTERM stops taking connections, finishes the request in flight and exits 0', async () => {
    const { database, server, url, slow } = await terminatingWithRequestInFlight();
    // New connections are refused while the request in flight is still being served.
    const deadline = Date.now() + PROCESS_WAIT_MS;
    let accepting = await acceptsConnections(url);
    while (accepting && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      accepting = await acceptsConnections(url);
    }
    assert.equal(accepting, false, 'the listener is closed');
    assert.equal(server.child.exitCode, null, 'the process waits for the request');
    slow.finish();
    assert.equal(await slow.response, 201);
    assert.equal(await server.exited, 0);
    // In the order the process took the steps: each record's own timestamp, stamped when
    // it was logged. Not the order of the lines: pino writes stdout asynchronously, and
    // at exit it may flush queued lines ahead of one still being written.
    const records = server.logRecords();
    const steps = [
      /^shutting down$/,
      /^HTTP server closed/,
      /^schedule runner stopped/,
      /^pruning stopped/,
      /^delivery worker stopped/,
      /^database closed$/,
      /^shutdown complete$/,
    ].map((step) => records.find((record) => step.test(record.msg ?? ''))?.time);
    assert.ok(
      steps.every((time) => typeof time === 'number'),
      `every step is logged:\n${server.output()}`,
    );
    assert.deepEqual(
      steps,
      [...steps].sort((a, b) => Number(a) - Number(b)),
      `in order:\n${server.output()}`,
    );
    assert.equal(
      server.logRecords().find((record) => record.msg === 'shutting down')?.signal,
      'SIGTERM',
    );
    assert.deepEqual(await itemTypeApiKeys(database), ['slow'], 'the request committed');
  });

  test('SIGINT stops the server cleanly too', async () => {
    const server = serveStarted([], await databaseEnv());
    await server.waitFor(/fieldhouse started/);
    server.child.kill('SIGINT');
    assert.equal(await server.exited, 0);
    assert.match(server.output(), /"signal":"SIGINT".*"shutting down"/);
  });

  test('a second signal exits at once, without waiting for the request in flight', async () => {
    const { server, slow } = await terminatingWithRequestInFlight();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 143);
    assert.match(server.output(), /second signal/);
    await assert.rejects(slow.response);
  });

  test('a shutdown still waiting after 20 s exits 1', async () => {
    const { server, slow } = await terminatingWithRequestInFlight();
    const signalledAt = Date.now();
    assert.equal(await server.exited, 1);
    assert.ok(Date.now() - signalledAt >= 19_000, 'it waited for the time limit');
    assert.match(server.output(), /shutdown did not finish in time/);
    await assert.rejects(slow.response);
  });

  test('migrate applies migrations and reports an up-to-date database', async () => {
    const env = await databaseEnv();
    const run = runFieldhouse(['migrate'], env);
    assert.equal(await run.exited, 0, run.output());
    assert.match(run.output(), /up to date/);
  });

  if (TEST_ENGINE === 'embedded') {
    test('embedded: a fresh data dir is created, and a second process is locked out', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fieldhouse-cli-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const owner = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      cleanups.push(() => owner.stop());
      await owner.listening;
      const intruder = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      assert.equal(await intruder.exited, 78);
      assert.match(intruder.output(), /in use by process \d+/);
      await owner.stop();
      const after = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      cleanups.push(() => after.stop());
      await after.listening; // the lock was released on a clean stop
      after.child.kill('SIGKILL');
      await after.exited;
      const afterCrash = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      cleanups.push(() => afterCrash.stop());
      await afterCrash.listening; // a dead owner's lock is taken over
    });

    test('embedded: a new data dir is a copy of the cached initdb output, and each data dir is its own database', async () => {
      const cacheDir = temporaryDir();
      const firstDir = temporaryDir();
      const first = serveStarted([], {
        FIELDHOUSE_DATA_DIR: firstDir,
        FIELDHOUSE_CACHE_DIR: cacheDir,
      });
      const firstClient = buildClient({
        apiToken: ADMIN_TOKEN,
        baseUrl: await first.listening,
        autoRetry: false,
      });
      await firstClient.itemTypes.create({ name: 'Post', api_key: 'post' });
      const templates = readdirSync(cacheDir);
      assert.equal(templates.length, 1, `one template in the cache: ${templates}`);
      // A file only the cached template has: a data dir built from it has it too.
      const template = join(cacheDir, templates[0] ?? '');
      writeFileSync(join(template, 'copied-from-template'), '');

      const secondDir = temporaryDir();
      const second = serveStarted([], {
        FIELDHOUSE_DATA_DIR: secondDir,
        FIELDHOUSE_CACHE_DIR: cacheDir,
      });
      const secondClient = buildClient({
        apiToken: ADMIN_TOKEN,
        baseUrl: await second.listening,
        autoRetry: false,
      });
      await second.waitFor(/fieldhouse started/);
      assert.ok(existsSync(join(secondDir, 'pgdata', 'copied-from-template')));
      assert.match(second.output(), /project created/);
      assert.deepEqual(await secondClient.itemTypes.list(), []);
      await secondClient.itemTypes.create({ name: 'Page', api_key: 'page' });
      assert.deepEqual(
        (await firstClient.itemTypes.list()).map((itemType) => itemType.api_key),
        ['post'],
      );
    });

    test('embedded: a first start killed during database init leaves no init behind; a restart builds a whole database', async () => {
      const dataDir = temporaryDir();
      // An empty cache: initdb runs, as on a machine's first start.
      const cacheDir = temporaryDir();
      const env = { FIELDHOUSE_DATA_DIR: dataDir, FIELDHOUSE_CACHE_DIR: cacheDir };
      const first = serveStarted([], env);
      const parentPid = first.child.pid ?? 0;
      const initPid = await waitForChildProcess(parentPid, /embedded-init/);
      // Whatever happens below, the init process does not outlive the test.
      cleanups.push(async () => {
        if (isRunning(initPid)) process.kill(initPid, 'SIGKILL');
      });
      // Caught as initdb starts writing and held there, so the restart below meets a
      // half-written database wherever the init writes.
      await waitForInitWrites(cacheDir);
      process.kill(initPid, 'SIGSTOP');
      first.child.kill('SIGKILL');
      await first.exited;

      // Restarted while the orphaned init is alive; it resumes once the restart has started.
      const restart = serveStarted([], env);
      const url = await restart.listening;
      await restart.waitFor(/fieldhouse started/);
      assert.match(restart.output(), /project created/);
      process.kill(initPid, 'SIGCONT');
      assert.ok(await waitForExit(initPid), 'the orphaned init exits');
      const client = buildClient({ apiToken: ADMIN_TOKEN, baseUrl: url, autoRetry: false });
      await client.itemTypes.create({ name: 'Post', api_key: 'post' });
      await restart.stop();
      assert.deepEqual(
        [...readdirSync(dataDir), ...readdirSync(cacheDir)].filter((entry) =>
          entry.includes('.init-'),
        ),
        [],
        'no init directory is left',
      );

      // The database is whole on disk: a further start opens it as it was.
      const again = serveStarted([], env);
      const againUrl = await again.listening;
      const againClient = buildClient({
        apiToken: ADMIN_TOKEN,
        baseUrl: againUrl,
        autoRetry: false,
      });
      assert.deepEqual(
        (await againClient.itemTypes.list()).map((itemType) => itemType.api_key),
        ['post'],
      );
    });
  }
});
