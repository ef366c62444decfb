import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { type DatabaseHandle, type Db, openDatabase } from '../../src/db/client.ts';
import { createTestDatabase, databaseConfig, type TestDatabase } from '../support/databases.ts';
import { buildField } from '../support/factories.ts';
import { roundTripsOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// A transaction's BEGIN travels with its first statement when that statement has no
// parameters (src/db/query/folded-begin-dialect.ts): one round trip less per change. These
// check the round trips sent, and that transactions stay whole, roll back and leave
// their connection clean. One pooled connection, so every test reuses the one before's.

let database: TestDatabase;
let handle: DatabaseHandle;
let db: Db;
before(async () => {
  database = await createTestDatabase();
  handle = await openDatabase(databaseConfig(database, 1));
  db = handle.db;
  await sql`CREATE TABLE fold_probe (n int)`.execute(db);
});
after(async () => {
  await handle?.close();
  await database?.drop();
});

const probeValues = async () =>
  (await sql<{ n: number }>`SELECT n FROM fold_probe ORDER BY n`.execute(db)).rows.map(
    (row) => row.n,
  );

/**
 * Whether the connection is outside any transaction block: two statements there run in
 * two transactions, so they see two transaction ids; a leftover block would show one.
 */
async function outsideTransactions(): Promise<boolean> {
  const xid = sql<{ x: string }>`SELECT pg_current_xact_id()::text AS x`;
  const first = (await xid.execute(db)).rows[0]?.x;
  const second = (await xid.execute(db)).rows[0]?.x;
  return first !== second;
}

test('BEGIN goes with a first statement without parameters, which answers its own rows', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  let inserted: bigint | undefined;
  let selected: unknown[] = [];
  const sent = await roundTripsOf(() =>
    db.transaction().execute(async (trx) => {
      inserted = (await sql`INSERT INTO fold_probe VALUES (1), (2)`.execute(trx)).numAffectedRows;
      selected = (await sql`SELECT n FROM fold_probe ORDER BY n`.execute(trx)).rows;
    }),
  );
  assert.deepEqual(sent, [
    'begin; INSERT INTO fold_probe VALUES (1), (2)',
    'SELECT n FROM fold_probe ORDER BY n',
    'commit',
  ]);
  assert.equal(inserted, 2n);
  assert.deepEqual(selected, [{ n: 1 }, { n: 2 }]);
  assert.deepEqual(await probeValues(), [1, 2]);
  assert.ok(await outsideTransactions());
});

test('a first statement with parameters gets BEGIN alone before it, and the transaction holds', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  const sent = await roundTripsOf(() =>
    assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO fold_probe VALUES (${3})`.execute(trx);
        throw new Error('undo');
      }),
      /undo/,
    ),
  );
  assert.deepEqual(sent, ['begin', 'INSERT INTO fold_probe VALUES ($1)', 'rollback']);
  assert.deepEqual(await probeValues(), [], 'the insert was inside the transaction');

  await db.transaction().execute(async (trx) => {
    await sql`INSERT INTO fold_probe VALUES (${4})`.execute(trx);
  });
  assert.deepEqual(await probeValues(), [4]);
  assert.ok(await outsideTransactions());
});

test('a failing first statement rolls the transaction back and leaves the connection clean', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  const failing = await roundTripsOf(() =>
    assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO fold_probe VALUES (1 / 0)`.execute(trx);
      }),
      /division by zero/,
    ),
  );
  // BEGIN ran and the insert failed: the block is aborted until the ROLLBACK.
  assert.deepEqual(failing, ['begin; INSERT INTO fold_probe VALUES (1 / 0)', 'rollback']);
  assert.ok(await outsideTransactions());

  // A text that does not parse runs neither statement: the ROLLBACK finds no block.
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await sql`INSERT INTO fold_probe VALUES (`.execute(trx);
    }),
    /syntax error/,
  );
  assert.ok(await outsideTransactions());

  await db.transaction().execute(async (trx) => {
    await sql`INSERT INTO fold_probe VALUES (5)`.execute(trx);
    await sql`INSERT INTO fold_probe VALUES (6)`.execute(trx);
  });
  assert.deepEqual(await probeValues(), [5, 6]);
});

test('a transaction that sends no statement costs no round trip', async () => {
  const sent = await roundTripsOf(async () => {
    assert.equal(await db.transaction().execute(async () => 'nothing sent'), 'nothing sent');
    await assert.rejects(
      db.transaction().execute(async () => {
        throw new Error('before any statement');
      }),
      /before any statement/,
    );
  });
  assert.deepEqual(sent, []);
  assert.ok(await outsideTransactions());
});

test('isolation level and access mode travel with the BEGIN', async () => {
  const sent = await roundTripsOf(() =>
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{ level: string; ro: string }>`
          SELECT current_setting('transaction_isolation') AS level,
                 current_setting('transaction_read_only') AS ro`.execute(trx);
        assert.deepEqual(rows, [{ level: 'repeatable read', ro: 'on' }]);
      }),
  );
  assert.equal(sent.length, 2);
  assert.match(sent[0] ?? '', /^begin isolation level repeatable read read only; SELECT/);
});

test('serial transactions on one reserved connection, with statements between them', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  await db.connection().execute(async (conn) => {
    await conn.transaction().execute(async (trx) => {
      await sql`INSERT INTO fold_probe VALUES (1)`.execute(trx);
    });
    await sql`INSERT INTO fold_probe VALUES (2)`.execute(conn);
    await assert.rejects(
      conn.transaction().execute(async (trx) => {
        await sql`INSERT INTO fold_probe VALUES (3)`.execute(trx);
        throw new Error('undo');
      }),
    );
    // Outside a transaction again: this insert commits on its own.
    await sql`INSERT INTO fold_probe VALUES (4)`.execute(conn);
    await conn.transaction().execute(async (trx) => {
      await sql`INSERT INTO fold_probe VALUES (${5})`.execute(trx);
    });
  });
  assert.deepEqual(await probeValues(), [1, 2, 4, 5]);
  assert.ok(await outsideTransactions());
});

test.describe('through the API', () => {
  const server = useTestServer();
  const client = server.client();

  test('a change sends its BEGIN with the environment entry, not alone', async () => {
    const field = await buildField(client);
    const sent = await roundTripsOf(() => client.fields.update(field.id, { hint: 'folded' }));
    const entry = sent.findIndex((text) =>
      text.startsWith('begin; SELECT * FROM enter_environment('),
    );
    assert.ok(entry >= 0, `BEGIN goes with the entry: ${sent.join('\n')}`);
    assert.ok(!sent.includes('begin'), 'no BEGIN goes alone');
    assert.ok(sent.slice(entry).includes('commit'));
    assert.equal((await client.fields.find(field.id)).hint, 'folded');
  });
});
