import { sql } from 'kysely';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
const dir = `/tmp/stmt-${process.pid}`;
const h = await openDatabase({ databaseUrl: process.argv[2] ?? null, dataDir: dir, dbPoolSize: 1 });
const db = h.db;
try { await migrateToLatest(db); } catch (e) { console.log('migrate', (e as Error).message); }
async function time(name: string, fn: () => Promise<unknown>, n = 2000) {
  for (let i = 0; i < 200; i++) await fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  console.log(name.padEnd(40), (Number(process.hrtime.bigint() - t) / n / 1e6).toFixed(3), 'ms');
}
await time('select 1 (simple)', () => sql`select 1`.execute(db));
await time('select $1 (extended)', () => sql`select ${1}::int`.execute(db));
await time('begin; select 1; commit (tx)', () => db.transaction().execute((trx) => sql`select 1`.execute(trx)));
await time('tx: advisory lock', () => db.transaction().execute((trx) => sql`select pg_advisory_xact_lock(1, 1)`.execute(trx)));
await time('tx: enter_environment', () => db.transaction().execute((trx) => sql`SELECT * FROM enter_environment(7246001, 1)`.execute(trx)));
await time('tx: update env last change', () => db.transaction().execute((trx) => sql`update environments set last_data_change_at = now() where number = 1`.execute(trx)));
await time('tx: update site_settings noop', () => db.transaction().execute((trx) => sql`update env_1.site_settings set timezone = timezone`.execute(trx)));
await time('tx: notify', () => db.transaction().execute((trx) => sql`select pg_notify('x', 'y')`.execute(trx)));
await h.close();
