import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { executePrepared } from '../../src/db/query/prepared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Embedded, a statement's extended-protocol messages reach PGlite in one run with their
// Sync (src/db/engine/embedded-protocol.ts): what the client sees must not change, errors
// included. The same assertions hold on PostgreSQL, which gets the messages as sent.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.close();
});

test('parameters, prepared statements and failing statements answer as they would one message at a time', async () => {
  const { rows } = await sql<{ sum: number }>`SELECT ${1}::int + ${2}::int AS sum`.execute(
    server.db,
  );
  assert.deepEqual(rows, [{ sum: 3 }]);

  const named = (value: string) =>
    executePrepared(server.db, {
      compile: () => sql<{ n: number }>`SELECT ${value}::int AS n`.compile(server.db),
    });
  assert.deepEqual(await named('41'), [{ n: 41 }]);
  // The Bind fails: PostgreSQL skips to the Sync, and the statement stays prepared.
  await assert.rejects(named('not a number'), /invalid input syntax/);
  assert.deepEqual(await named('42'), [{ n: 42 }]);

  // A Parse that fails, then a transaction on the same connection.
  await assert.rejects(
    sql`SELECT FROM nowhere_at_all WHERE x = ${1}`.execute(server.db),
    /nowhere/,
  );
  // A statement failing inside a transaction: the transaction rolls back whole.
  await assert.rejects(
    server.db.transaction().execute(async (trx) => {
      await trx.updateTable('site').set({ maintenance_mode: true }).execute();
      await sql`SELECT ${'x'}::int`.execute(trx);
    }),
    /invalid input syntax/,
  );
  const site = await server.db.selectFrom('site').select('maintenance_mode').executeTakeFirst();
  assert.equal(site?.maintenance_mode, false);
  const { rows: after } = await sql<{ ok: boolean }>`SELECT ${true}::boolean AS ok`.execute(
    server.db,
  );
  assert.deepEqual(after, [{ ok: true }]);
});
