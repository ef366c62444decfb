import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, describe, test } from 'node:test';
import { createTestDatabase } from '../support/databases.ts';
import { type FieldhouseProcess, runFieldhouse } from '../support/process.ts';

// A log shipper that stops reading the server's stdout must not keep the server from
// stopping: the pipe fills, and every log line after that waits on a reader that never comes.
// Nor must one that is gone: every write then fails (EPIPE), and the lines still held at
// exit can never be written.

const ADMIN_TOKEN = 'ci-known-admin-token-0003';
// A broken run hangs for ever: this bounds how long the test waits for the exit.
const EXIT_WAIT_MS = 120_000;
// Each request logs one line of about 250 bytes: ten times what a pipe holds (64 KiB).
const REQUESTS = 3000;

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function serveWithUnreadStdout(): Promise<{ server: FieldhouseProcess; url: string }> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const env: Record<string, string> =
    database.engine === 'postgres'
      ? { DATABASE_URL: database.url }
      : { FIELDHOUSE_DATA_DIR: database.dataDir };
  const server = runFieldhouse(['serve'], { ...env, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null)
      server.child.kill('SIGKILL');
    await server.exited;
  });
  const url = await server.listening;
  await server.waitFor(/fieldhouse started/);
  // From here on nobody reads the server's stdout: the pipe fills and stays full.
  server.child.stdout?.pause();
  // Each answered request has logged its line (or dropped it) before the next is sent.
  for (let i = 0; i < REQUESTS; i++) {
    const response = await fetch(`${url}/healthz`);
    assert.equal(response.status, 200);
  }
  return { server, url };
}

function exitWithin(server: FieldhouseProcess, timeoutMs: number): Promise<number | null> {
  return Promise.race([
    server.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the server did not exit')), timeoutMs).unref(),
    ),
  ]);
}

/** A request the server holds until its body is complete, which it never is. */
function hangingCreate(url: string): Promise<void> {
  const request = httpRequest(`${url}/item-types`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'x-api-version': '3',
      'content-length': 1000,
      expect: '100-continue',
    },
  });
  request.on('error', () => undefined);
  const started = new Promise<void>((resolve) =>
    request.once('continue', () => request.write('{"data":', () => resolve())),
  );
  request.flushHeaders();
  return started;
}

describe('a server whose stdout is never read', () => {
  test('SIGTERM still stops it', async () => {
    const { server } = await serveWithUnreadStdout();
    server.child.kill('SIGTERM');
    assert.equal(await exitWithin(server, EXIT_WAIT_MS), 0);
  });

  test('SIGTERM stops it when the reader is gone too', async () => {
    const { server, url } = await serveWithUnreadStdout();
    // The reading end closes: the next write fails with EPIPE, and so does each after it.
    server.child.stdout?.destroy();
    for (let i = 0; i < 10; i++) assert.equal((await fetch(`${url}/healthz`)).status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await exitWithin(server, EXIT_WAIT_MS), 0);
  });

  test('a second SIGTERM still exits at once', async () => {
    const { server, url } = await serveWithUnreadStdout();
    // The request in flight keeps the graceful shutdown waiting.
    await hangingCreate(url);
    server.child.kill('SIGTERM');
    // The shutdown has begun once the listener refuses connections.
    for (;;) {
      const refused = await fetch(`${url}/healthz`).then(
        () => false,
        () => true,
      );
      if (refused) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    server.child.kill('SIGTERM');
    assert.equal(await exitWithin(server, EXIT_WAIT_MS), 143);
  });
});
