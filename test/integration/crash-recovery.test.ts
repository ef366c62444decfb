import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { crashRun } from '../support/crash-run.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

let database: TestDatabase;
after(() => database?.drop());

// The CI-sized run of bench/crash.ts (which does 20 kills during 10,000 changes).
test('kill -9 during schema changes loses no committed change and no event', async (t) => {
  database = await createTestDatabase();
  const report = await crashRun({
    database,
    changes: 400,
    kills: 3,
    concurrency: 4,
    drainTimeoutMs: 90_000,
  });
  t.diagnostic(
    `acknowledged ${report.acknowledged}, cut off ${report.unacknowledged}, calls ${report.calls}, duplicates ${report.duplicates}`,
  );
  assert.ok(report.acknowledged >= 380, `most changes were acknowledged: ${report.acknowledged}`);
  assert.equal(report.restartsMs.length, 3);
  assert.equal(report.lostChanges, 0, 'every acknowledged change has its event');
  assert.equal(report.lostEvents, 0, 'every event has a call, and every call was delivered');
  assert.ok(report.calls >= report.acknowledged + 1, 'one call per event (model create too)');
});
