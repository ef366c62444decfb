import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { buildClient, type Client } from '@datocms/cma-client-node';
import { recordCacheOf } from '../../src/domain/caches/caches.ts';
import { MAX_KEPT_RECORD_BYTES } from '../../src/domain/caches/record-cache.ts';
import { apiError } from '../support/api-errors.ts';
import { createTestDatabase } from '../support/databases.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { runFieldhouse } from '../support/process.ts';
import { startTestServer } from '../support/server.ts';

const ADMIN_TOKEN = 'bounded-reads-admin-token-0001';
const RECORDS = 120;
// Near the 1 MiB body limit: the largest record a client can send.
const VALUE_BYTES = 900_000;
const CONCURRENT_LISTS = 4;

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A `/proc/<pid>/status` figure in MB (VmRSS now, VmHWM the peak since the last reset). */
function memoryMb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  assert.ok(kb, `no ${key} in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

/** Resets the process's peak RSS to its current RSS (Linux: clear_refs 5). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Runs `work` on every element, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += width)
    await Promise.all(items.slice(start, start + width).map(work));
}

/** Every record id the official client's paginating iterator yields, in order. */
async function walk(client: Client, modelId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const record of client.items.listPagedIterator({ filter: { type: modelId } }))
    ids.push(record.id);
  return ids;
}

/**
 * Records near the largest a client may send, listed by several clients at once: the
 * server holds a bounded number of bytes for them (a page too large for the page byte
 * cap is refused, reads past the in-flight budget wait their turn through 429s the client
 * retries), the official client's iterator still walks every record, and /healthz
 * answers while the lists run. Memory is the server's peak RSS (VmHWM), measured against
 * its own RSS once the records exist.
 */
test('concurrent lists of large records keep the server memory bounded and /healthz answering', async () => {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const env: Record<string, string> =
    database.engine === 'postgres'
      ? { DATABASE_URL: database.url, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN }
      : { FIELDHOUSE_DATA_DIR: database.dataDir, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN };
  const server = runFieldhouse(['serve'], env);
  cleanups.push(() => server.stop());
  const url = await server.listening;
  const pid = server.child.pid;
  assert.ok(pid);
  // Retries on (429 waits X-RateLimit-Reset), and room for slow answers on a busy machine.
  const client = buildClient({ apiToken: ADMIN_TOKEN, baseUrl: url, requestTimeout: 600_000 });

  const model = await buildModel(client, { api_key: 'large_record' });
  await buildField(client, { itemTypeId: model.id, api_key: 'body', field_type: 'text' });
  const numbers = Array.from({ length: RECORDS }, (_, index) => index);
  await inBatches(numbers, 4, () =>
    client.items.create({
      item_type: itemTypeRef(model.id),
      // Random text: it does not compress, in the database or anywhere else.
      body: randomBytes((VALUE_BYTES * 3) / 4).toString('base64'),
    }),
  );

  const baseline = memoryMb(pid, 'VmRSS');
  resetPeak(pid);

  let listsRunning = 0;
  const tracked = <T>(work: Promise<T>): Promise<T> => {
    listsRunning++;
    return work.finally(() => {
      listsRunning--;
    });
  };
  // Whole-model pages (every record in one answer), and the iterator's default pages.
  const wholePages = Array.from({ length: CONCURRENT_LISTS }, () =>
    tracked(
      client.items.list({ filter: { type: model.id }, page: { limit: 500 } }).then(
        (records) => ({ records, error: undefined }),
        (error: unknown) => ({ records: undefined, error: apiError(error) }),
      ),
    ),
  );
  const walks = Array.from({ length: CONCURRENT_LISTS }, () => tracked(walk(client, model.id)));

  // The process keeps answering while the lists are in flight.
  const health = await fetch(`${url}/healthz`);
  assert.equal(health.status, 200);
  assert.ok(listsRunning > 0, 'every list had finished before /healthz answered');

  const [pages, walked] = await Promise.all([Promise.all(wholePages), Promise.all(walks)]);
  const peak = memoryMb(pid, 'VmHWM');
  console.log(
    `bounded-reads (${database.engine}): RSS ${baseline.toFixed(0)} MB once the records exist, peak ${peak.toFixed(0)} MB during the lists`,
  );
  // The in-flight budget (64 MiB of record JSON) is a few hundred MB of process memory at
  // most; unbounded, 4 whole-model pages alone grew it by 1.5 GB.
  assert.ok(peak - baseline < 600, `peak RSS grew ${(peak - baseline).toFixed(0)} MB`);

  for (const { records, error } of pages) {
    // A page too large is refused with the largest page[limit] that fits.
    assert.equal(records, undefined, 'a 108 MB page was served whole');
    const refusal = error?.findError('INVALID_PARAMS');
    assert.ok(refusal, JSON.stringify(error?.errors));
    const largest = Number(refusal.attributes.details.largest_limit);
    assert.ok(largest >= 30 && largest < RECORDS, `largest_limit ${largest}`);
  }
  for (const ids of walked) {
    assert.equal(ids.length, RECORDS);
    assert.equal(new Set(ids).size, RECORDS);
  }
});

/**
 * The record cache measures a record as it is held once read (its JSON), not as stored:
 * the database compresses repetitive values, which would make a large record look small.
 */
test('the record cache keeps no large record, however well its values compress', async () => {
  const server = await startTestServer();
  cleanups.push(() => server.close());
  const client = server.client();
  const model = await buildModel(client, { api_key: 'repetitive' });
  await buildField(client, { itemTypeId: model.id, api_key: 'body', field_type: 'text' });
  const small = await client.items.create({ item_type: itemTypeRef(model.id), body: 'short' });
  const large = await client.items.create({
    item_type: itemTypeRef(model.id),
    body: 'a'.repeat(MAX_KEPT_RECORD_BYTES * 8),
  });
  const cache = recordCacheOf(server.db);
  await client.items.find(small.id);
  assert.equal(cache.size, 1);
  assert.equal((await client.items.find(large.id)).body, 'a'.repeat(MAX_KEPT_RECORD_BYTES * 8));
  assert.equal(cache.size, 1, 'the large record was kept');
  assert.ok(cache.bytes < MAX_KEPT_RECORD_BYTES);
});
