import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type RawBuilder, sql } from 'kysely';
import { type DatabaseHandle, type Db, openDatabase } from '../../src/db/client.ts';
import { sendHeld } from '../../src/db/query/pipelining-dialect.ts';
import { executePrepared } from '../../src/db/query/prepared.ts';
import type { Queryable } from '../../src/db/transaction.ts';
import { createTestDatabase, databaseConfig, type TestDatabase } from '../support/databases.ts';
import { buildField } from '../support/factories.ts';
import { roundTripsOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// A transaction's BEGIN, and the statements it holds, travel with its next statement or its
// COMMIT (src/db/query/pipelining-dialect.ts): fewer round trips per change. These check
// the round trips sent, and that transactions stay whole, roll back and leave their
// connection clean. One pooled connection, so every test reuses the one before's.

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

test('a first statement with parameters takes BEGIN along in one run, and the transaction holds', async () => {
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
  assert.deepEqual(sent, ['begin; INSERT INTO fold_probe VALUES ($1)', 'rollback']);
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

/** Sends `statement` held (prepared.ts's `held`): it waits for what follows it. */
const hold = (on: Queryable, statement: RawBuilder<unknown>) =>
  executePrepared(on, { compile: () => statement.compile(on) }, { held: true });

/** Inserts `n` into the probe table by a held statement. */
const holdInsert = (on: Queryable, n: unknown) =>
  hold(on, sql`INSERT INTO fold_probe VALUES (${n})`);

test('a held statement goes with the next one, which sees what it did', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  let selected: unknown[] = [];
  const sent = await roundTripsOf(() =>
    db.transaction().execute(async (trx) => {
      assert.deepEqual(await holdInsert(trx, 7), [], 'a held statement answers no rows');
      selected = (await sql`SELECT n FROM fold_probe ORDER BY n`.execute(trx)).rows;
    }),
  );
  assert.deepEqual(sent, [
    'begin; INSERT INTO fold_probe VALUES ($1); SELECT n FROM fold_probe ORDER BY n',
    'commit',
  ]);
  assert.deepEqual(selected, [{ n: 7 }]);
  assert.deepEqual(await probeValues(), [7]);
});

test('a held statement last in its transaction goes with the COMMIT', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  const sent = await roundTripsOf(() =>
    db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await holdInsert(trx, 8);
    }),
  );
  assert.deepEqual(sent, ['begin; SELECT 1', 'INSERT INTO fold_probe VALUES ($1); commit']);
  assert.deepEqual(await probeValues(), [8]);
  assert.ok(await outsideTransactions());
});

test('a held statement that fails fails the statement it goes with, or the COMMIT: nothing commits', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await sql`INSERT INTO fold_probe VALUES (1)`.execute(trx);
      await holdInsert(trx, 'not a number');
      await sql`INSERT INTO fold_probe VALUES (2)`.execute(trx);
    }),
    /invalid input syntax for type integer/,
  );
  assert.deepEqual(await probeValues(), []);
  assert.ok(await outsideTransactions());

  const sent = await roundTripsOf(() =>
    assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO fold_probe VALUES (3)`.execute(trx);
        await holdInsert(trx, 'not a number');
      }),
      /invalid input syntax for type integer/,
    ),
  );
  // The COMMIT was skipped with the failed statement: the block is rolled back.
  assert.deepEqual(sent, [
    'begin; INSERT INTO fold_probe VALUES (3)',
    'INSERT INTO fold_probe VALUES ($1); commit',
    'rollback',
  ]);
  assert.deepEqual(await probeValues(), []);
  assert.ok(await outsideTransactions());
});

test('a transaction that fails drops what it holds unsent; outside one, a held statement goes at once', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  const sent = await roundTripsOf(async () => {
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await holdInsert(trx, 1);
        throw new Error('undo');
      }),
      /undo/,
    );
    await holdInsert(db, 2);
  });
  assert.deepEqual(sent, ['INSERT INTO fold_probe VALUES ($1)']);
  assert.deepEqual(await probeValues(), [2]);
  assert.ok(await outsideTransactions());
});

test('a held statement that wants its rows gets them once its run succeeded, in a transaction or alone', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  const rowsOf = async (on: Queryable, statement: RawBuilder<unknown>) => {
    let rows: readonly unknown[] | null = null;
    await executePrepared(
      on,
      { compile: () => statement.compile(on) },
      {
        held: true,
        receive: (received) => {
          rows = received;
        },
      },
    );
    return () => rows;
  };
  let inTransaction = () => null as readonly unknown[] | null;
  await db.transaction().execute(async (trx) => {
    await holdInsert(trx, 3);
    inTransaction = await rowsOf(trx, sql`SELECT count(*)::int AS n FROM fold_probe`);
    assert.equal(inTransaction(), null, 'not yet sent');
  });
  assert.deepEqual(inTransaction(), [{ n: 1 }], 'sent with the COMMIT, it saw the insert');
  const alone = await rowsOf(db, sql`SELECT 2 AS n`);
  assert.deepEqual(alone(), [{ n: 2 }], 'outside a transaction it goes at once');
  let failed = () => null as readonly unknown[] | null;
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      failed = await rowsOf(trx, sql`SELECT 1 AS n`);
      await sql`SELECT 1 / 0`.execute(trx);
    }),
    /division by zero/,
  );
  assert.equal(failed(), null, 'a run that failed hands over nothing');
});

test('a transaction holds at most 16 statements: the 16th sends them', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  const sent = await roundTripsOf(() =>
    db.transaction().execute(async (trx) => {
      for (let n = 1; n <= 20; n++) await holdInsert(trx, n);
    }),
  );
  const insert = 'INSERT INTO fold_probe VALUES ($1)';
  assert.deepEqual(sent, [
    ['begin', ...Array(16).fill(insert)].join('; '),
    [...Array(4).fill(insert), 'commit'].join('; '),
  ]);
  assert.deepEqual(
    await probeValues(),
    Array.from({ length: 20 }, (_, index) => index + 1),
  );
});

test('sendHeld sends what is held at once: a failure rejects there, and a rollback still undoes it', async () => {
  await sql`DELETE FROM fold_probe`.execute(db);
  const sent = await roundTripsOf(() =>
    assert.rejects(
      db.transaction().execute(async (trx) => {
        await holdInsert(trx, 9);
        await sendHeld(trx);
        // It ran: the transaction sees it, and has nothing left to send.
        assert.deepEqual((await sql`SELECT n FROM fold_probe`.execute(trx)).rows, [{ n: 9 }]);
        await sendHeld(trx);
        throw new Error('validated only');
      }),
      /validated only/,
    ),
  );
  assert.deepEqual(sent, [
    'begin; INSERT INTO fold_probe VALUES ($1)',
    'SELECT n FROM fold_probe',
    'rollback',
  ]);
  assert.deepEqual(await probeValues(), []);

  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await holdInsert(trx, 'not a number');
      await sendHeld(trx);
      assert.fail('the held statement failed: sendHeld rejects');
    }),
    /invalid input syntax for type integer/,
  );
  assert.ok(await outsideTransactions());
});

test('a prepared statement in a run that fails is parsed again only if its parse did not run', async () => {
  // Texts no other test sends, so each is new to the connection here.
  const before = sql`INSERT INTO fold_probe VALUES (${1} + 100)`;
  const after = sql`INSERT INTO fold_probe VALUES (${1} + 200)`;
  await sql`DELETE FROM fold_probe`.execute(db);
  // `after` is never parsed: the run stops at the statement that fails before it.
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await holdInsert(trx, 'not a number');
      await hold(trx, after);
    }),
    /invalid input syntax/,
  );
  // `before` is parsed, then the run fails after it.
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await hold(trx, before);
      await sql`SELECT 1 / 0`.execute(trx);
    }),
    /division by zero/,
  );
  // Both run now: neither is parsed twice, nor bound unparsed.
  await db.transaction().execute(async (trx) => {
    await hold(trx, before);
    await hold(trx, after);
  });
  assert.deepEqual(await probeValues(), [101, 201]);
  assert.ok(await outsideTransactions());
});

test.describe('through the API', () => {
  const server = useTestServer();
  const client = server.client();

  test('a change is two round trips: its entry with its first read, then its event with its COMMIT', async () => {
    const field = await buildField(client);
    const sent = await roundTripsOf(() => client.fields.update(field.id, { hint: 'folded' }));
    const entry = sent.findIndex((text) =>
      text.startsWith('begin; SELECT enter_environment_assuming('),
    );
    assert.ok(entry >= 0, `BEGIN goes with the entry: ${sent.join('\n')}`);
    assert.match(
      sent[entry] ?? '',
      /\); select row_to_json\(it\.\*\)/,
      'the field is read in that trip',
    );
    assert.ok(!sent.includes('begin'), 'no BEGIN goes alone');
    assert.ok(!sent.includes('commit'), 'no COMMIT goes alone');
    assert.match(sent[entry + 1] ?? '', /"event" AS \(insert into "events".*; commit$/s);
    assert.equal((await client.fields.find(field.id)).hint, 'folded');
  });
});
