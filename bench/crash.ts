// Crash safety: SIGKILLs `fieldhouse serve` during a stream of schema changes, restarts
// it, and checks that every committed change was delivered to the webhook receiver.
// Usage: npx tsx bench/crash.ts [--db postgres|embedded] [--changes 10000] [--kills 20]
import { parseArgs } from 'node:util';
import { crashRun } from '../test/support/crash-run.ts';
import { benchDatabase, printTable } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    changes: { type: 'string', default: '10000' },
    kills: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '8' },
  },
});

const database = await benchDatabase(values.db === 'embedded' ? 'embedded' : 'postgres');
try {
  const report = await crashRun({
    database,
    changes: Number(values.changes),
    kills: Number(values.kills),
    concurrency: Number(values.concurrency),
    drainTimeoutMs: 120_000,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const restarts = [...report.restartsMs].sort((a, b) => a - b);
  printTable([
    {
      db: database.engine,
      kills: String(restarts.length),
      'changes acknowledged': String(report.acknowledged),
      'cut off by a kill': String(report.unacknowledged),
      events: String(report.events),
      calls: String(report.calls),
      'lost changes': String(report.lostChanges),
      'lost events': String(report.lostEvents),
      deliveries: String(report.deliveries),
      duplicates: String(report.duplicates),
      'restart p50': `${restarts[Math.floor(restarts.length / 2)] ?? 0} ms`,
      total: `${(report.elapsedMs / 1000).toFixed(1)} s`,
    },
  ]);
  if (report.lostChanges > 0 || report.lostEvents > 0) process.exitCode = 1;
} finally {
  await database.drop();
}
