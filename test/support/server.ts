import { buildClient, type Client } from '@datocms/cma-client-node';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

export const ADMIN_TOKEN = 'fieldhouse-test-admin-token';

export type TestServer = {
  baseUrl: string;
  adminToken: string;
  db: Db;
  config: Config;
  /** The official client, pointed at this server. */
  client(options?: { apiToken?: string; environment?: string }): Client;
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

/** A real Fieldhouse listening on a loopback port, on its own fresh database. */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const database: TestDatabase = await createTestDatabase();
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    logLevel: 'silent',
    adminToken: ADMIN_TOKEN,
    databaseUrl: database.engine === 'postgres' ? database.url : null,
    dataDir: database.engine === 'embedded' ? database.dataDir : '',
    dbPoolSize: 5,
    ...overrides,
  };
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (error) {
    await database.drop();
    throw error;
  }
  const baseUrl = server.url.replace('[::1]', '127.0.0.1');
  return {
    baseUrl,
    adminToken: ADMIN_TOKEN,
    db: server.database.db,
    config,
    client: (options = {}) =>
      buildClient({
        apiToken: options.apiToken ?? ADMIN_TOKEN,
        baseUrl,
        environment: options.environment,
        autoRetry: false,
      }),
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
    },
  };
}
