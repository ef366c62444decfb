// The delivery API scaled out: 16 clients at once against one `fieldhouse serve` process,
// then against two processes on the same PostgreSQL database (each client keeps to one
// process, half the clients on each), for the same time each. Reports queries per second
// and the API processes' CPU per query (user + system, from /proc), so the ratio can be
// read on a machine whose cores are shared: 2 processes reach 2× only with 2 idle cores.
import { executeQuery } from '@datocms/cda-client';
import type { TestDatabase } from '../test/support/databases.ts';
import { type RunningFieldhouse, startFieldhouse } from './fieldhouse-schema-api.ts';
import { cpuMs } from './support.ts';

export const CLIENTS = 16;

export type ScaleRun = Readonly<{
  processes: number;
  queries: number;
  seconds: number;
  queriesPerSecond: number;
  cpuMsPerQuery: number;
}>;

/** `CLIENTS` clients, each running `query` back to back for `seconds` against its endpoint. */
async function load(
  endpoints: readonly string[],
  token: string,
  query: string,
  seconds: number,
): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let queries = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const graphqlEndpointUrl = endpoints[client % endpoints.length] as string;
      while (Date.now() < until) {
        await executeQuery(query, { token, graphqlEndpointUrl, autoRetry: false });
        queries += 1;
      }
    }),
  );
  return queries;
}

async function measured(
  servers: readonly RunningFieldhouse[],
  token: string,
  query: string,
  seconds: number,
): Promise<ScaleRun> {
  const endpoints = servers.map(
    (server) => `${(server.client.config as { baseUrl: string }).baseUrl}/graphql`,
  );
  // Warm-up: every process builds its schema and parses the query once.
  await load(endpoints, token, query, 2);
  const cpuBefore = servers.map((server) => cpuMs(server.pid));
  const started = process.hrtime.bigint();
  const queries = await load(endpoints, token, query, seconds);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = servers.reduce((sum, server, i) => sum + cpuMs(server.pid) - (cpuBefore[i] ?? 0), 0);
  return {
    processes: servers.length,
    queries,
    seconds: elapsed,
    queriesPerSecond: queries / elapsed,
    cpuMsPerQuery: cpu / queries,
  };
}

/**
 * One process (`first`, already serving the blog), then the same with a second process on
 * the same database.
 */
export async function scaleOut(
  first: RunningFieldhouse,
  database: TestDatabase,
  adminToken: string,
  token: string,
  query: string,
  seconds: number,
): Promise<[ScaleRun, ScaleRun]> {
  const one = await measured([first], token, query, seconds);
  const second = await startFieldhouse(database, adminToken);
  try {
    const two = await measured([first, second], token, query, seconds);
    return [one, two];
  } finally {
    await second.stop();
  }
}
