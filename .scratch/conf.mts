// A/B: the same statements on two embedded databases with different settings, alternating.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
const base = mkdtempSync(join(tmpdir(), 'conf-'));
const h = await openDatabase({ databaseUrl: null, dataDir: base, dbPoolSize: 1 });
await migrateToLatest(h.db);
await h.close();
const confs: Record<string, string[]> = {
  default: ['shared_buffers=8MB', 'max_connections=5'],
  variant: (process.argv[2] ?? '').split(',').concat(['shared_buffers=8MB', 'max_connections=5']).filter(Boolean),
};
const dbs: Record<string, PGlite> = {};
for (const name of Object.keys(confs)) {
  const dir = join(base, name);
  cpSync(join(base, 'pgdata'), dir, { recursive: true });
  dbs[name] = await PGlite.create(dir, { postgresqlconf: confs[name] });
}
const statements = [
  `SELECT * FROM enter_environment(7246001, 1)`,
  `update env_1.site_settings set timezone = timezone`,
  `insert into events (environment, is_environment_primary, entity_type, event_type, entity_id, entity, previous_entity, related_entities) values ('main', true, 'item_type', 'update', '1', '{"a":1}', 'null', '[]') returning id`,
];
async function round(db: PGlite) {
  await db.query('begin');
  for (const s of statements) await db.query(s);
  await db.query('commit');
}
const totals: Record<string, number> = { default: 0, variant: 0 };
for (let r = 0; r < 20; r++) {
  for (const name of Object.keys(dbs)) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) await round(dbs[name]!);
    if (r >= 2) totals[name]! += Number(process.hrtime.bigint() - t) / 1e6;
  }
}
for (const [name, ms] of Object.entries(totals)) console.log(name, confs[name]!.join(' '), (ms / (18 * 200)).toFixed(3), 'ms per transaction');
