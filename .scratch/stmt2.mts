import { sql } from 'kysely';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
const dir = `/tmp/stmt-${process.pid}`;
const h = await openDatabase({ databaseUrl: process.argv[2] ?? null, dataDir: dir, dbPoolSize: 1 });
const db = h.db;
await migrateToLatest(db);
console.log((await sql`select tgname, tgrelid::regclass::text from pg_trigger where not tgisinternal`.execute(db)).rows);
console.log((await sql`select indexdef from pg_indexes where tablename in ('environments','events')`.execute(db)).rows);
console.log((await sql`select name, setting from pg_settings where name in ('fsync','synchronous_commit','wal_level','full_page_writes','shared_buffers','wal_buffers','autovacuum')`.execute(db)).rows);
async function time(name: string, fn: () => Promise<unknown>, n = 2000) {
  for (let i = 0; i < 300; i++) await fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  console.log(name.padEnd(40), (Number(process.hrtime.bigint() - t) / n / 1e6).toFixed(3), 'ms');
}
const tx = (q: any) => () => db.transaction().execute((trx) => q.execute(trx));
await time('tx: select 1', tx(sql`select 1`));
await time('tx: select 1 (again)', tx(sql`select 1`));
await time('tx: lock', tx(sql`select pg_advisory_xact_lock(1, 1)`));
await time('tx: select env for update', tx(sql`select * from environments where number = 1 for update`));
await time('tx: select env for no key update', tx(sql`select * from environments where number = 1 for no key update`));
await time('tx: update env last change', tx(sql`update environments set last_data_change_at = now() where number = 1`));
await time('tx: enter_environment', tx(sql`SELECT * FROM enter_environment(7246001, 1)`));
await time('tx: insert event', tx(sql`insert into events (environment, is_environment_primary, entity_type, event_type, entity_id, entity, previous_entity, related_entities) values ('main', true, 'item_type', 'update', '1', '{}', 'null', '[]') returning id`));
await h.close();
