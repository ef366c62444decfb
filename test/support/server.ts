import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { buildClient, type Client } from '@datocms/cma-client-node';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { createTestDatabase, databaseConfig, type TestDatabase } from './databases.ts';

export const ADMIN_TOKEN = 'fieldhouse-test-admin-token';

export type TestServer = {
  baseUrl: string;
  adminToken: string;
  db: Db;
  config: Config;
  /** The official client, pointed at this server. */
  client(options?: ClientOptions): Client;
  /** A raw HTTP call with the headers the official client sends. */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    headers: Headers;
    body: unknown;
  }>;
  close(): Promise<void>;
};

type ClientOptions = { apiToken?: string; environment?: string };

/** The official client as a test uses it: admin token unless told, no retries. */
function officialClient(
  baseUrl: string,
  options: ClientOptions = {},
  fetchFn: typeof fetch = fetch,
): Client {
  return buildClient({
    apiToken: options.apiToken ?? ADMIN_TOKEN,
    baseUrl,
    environment: options.environment,
    autoRetry: false,
    fetchFn,
  });
}

/** A real Fieldhouse listening on a loopback port, on its own fresh database. */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const database: TestDatabase = await createTestDatabase();
  // Uploads go to a folder of the test's own unless it chose a storage.
  const uploadsDir = mkdtempSync(join(tmpdir(), 'fieldhouse-uploads-'));
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    port: 0,
    logLevel: 'silent',
    adminToken: ADMIN_TOKEN,
    ...databaseConfig(database, 5),
    storage: { kind: 'local', dir: uploadsDir },
    // Renditions too, beside them (not in the working directory's ./data).
    images: { ...defaults.images, renditionsDir: join(uploadsDir, '_renditions') },
    // The worker's pruning drops events no webhook call names; tests read events, so
    // its passes after the first (at start, on an empty log) come a day later unless a
    // test asks otherwise (test/integration/retention.test.ts does).
    pruneIntervalMs: 86_400_000,
    ...overrides,
  };
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (error) {
    await database.drop();
    rmSync(uploadsDir, { recursive: true, force: true });
    throw error;
  }
  const baseUrl = server.url.replace('[::1]', '127.0.0.1');
  return {
    baseUrl,
    adminToken: ADMIN_TOKEN,
    db: server.database.db,
    config,
    client: (options) => officialClient(baseUrl, options),
    async request(method, path, body, headers = {}) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          accept: 'application/json',
          'content-type': 'application/json',
          'x-api-version': '3',
          ...headers,
        },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
    },
    async close() {
      await server.close();
      await database.drop();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

/** A suite's server: `useTestServer` starts and closes it, so it has no `close`. */
export type SuiteServer = Omit<TestServer, 'close'> & {
  /** Resolves once the server runs: what a `before` awaits before reading `db` or `baseUrl`. */
  ready(): Promise<void>;
};

/** Where a suite's clients point until their first request finds the running server. */
const PENDING_ORIGIN = 'http://suite-server.invalid';

/**
 * One server for the enclosing suite (the file at top level, or a `describe`): registers
 * the `before` that starts it and the `after` that closes it, and returns a handle usable
 * at once in declarations, so `const client = server.client();` sits at module level.
 *
 * Node 20 runs a file's top-level `before` hooks together, not one after another, so a
 * file's own `before` may run while the server is still starting: clients and `request`
 * wait for it; `db`, `config` and `baseUrl` throw until it runs (`await server.ready()`).
 */
export function useTestServer(overrides: Partial<Config> = {}): SuiteServer {
  let starting: Promise<TestServer> | undefined;
  let running: TestServer | undefined;
  before(async () => {
    starting = startTestServer(overrides);
    running = await starting;
  });
  after(async () => {
    await running?.close();
    running = undefined;
  });
  const whenStarted = (): Promise<TestServer> => {
    if (!starting)
      throw new Error('the suite server starts in its before hook: use it from there on');
    return starting;
  };
  const started = (): TestServer => {
    if (!running) throw new Error('the suite server has not started yet: await server.ready()');
    return running;
  };
  /** Sends a client's request (a URL string on PENDING_ORIGIN) to the running server. */
  const suiteFetch: typeof fetch = async (url, init) => {
    const server = await whenStarted();
    return fetch(String(url).replace(PENDING_ORIGIN, server.baseUrl), init);
  };
  return {
    ready: async () => {
      await whenStarted();
    },
    get baseUrl() {
      return started().baseUrl;
    },
    adminToken: ADMIN_TOKEN,
    get db() {
      return started().db;
    },
    get config() {
      return started().config;
    },
    client: (options) => officialClient(PENDING_ORIGIN, options, suiteFetch),
    request: async (method, path, body, headers) =>
      (await whenStarted()).request(method, path, body, headers),
  };
}
