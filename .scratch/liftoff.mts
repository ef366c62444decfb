import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
const src = process.argv[2]!;
if (process.argv[3] === 'liftoff') { setFlagsFromString('--liftoff-only'); setFlagsFromString('--wasm-lazy-compilation'); }
const dir = join(mkdtempSync(join(tmpdir(), 'lo-')), 'pgdata');
cpSync(src, dir, { recursive: true });
const db = await PGlite.create(dir, { postgresqlconf: ['shared_buffers=8MB', 'max_connections=5'] });
const statements = [
  `SELECT * FROM enter_environment(7246001, 1)`,
  `update env_1.site_settings set timezone = timezone`,
  `insert into events (environment, is_environment_primary, entity_type, event_type, entity_id, entity, previous_entity, related_entities) values ('main', true, 'item_type', 'update', '1', '{"a":1}', 'null', '[]') returning id`,
];
const times: number[] = [];
for (let r = 0; r < 15; r++) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < 200; i++) { await db.query('begin'); for (const s of statements) await db.query(s); await db.query('commit'); }
  times.push(Number(process.hrtime.bigint() - t) / 1e6 / 200);
}
times.sort((a, b) => a - b);
console.log(process.argv[3] ?? 'turbofan', 'median ms/tx', times[7]!.toFixed(3), 'min', times[0]!.toFixed(3), 'rss MB', (process.memoryUsage().rss / 1e6).toFixed(0));
await db.close();
