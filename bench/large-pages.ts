// Memory one client can make the server hold: `fieldhouse serve` (spawned from a
// checkout, on a fresh database) gets `--records` records each holding a `--kb` random
// text, then `--concurrency` clients each ask at once for a page of all of them
// (`GET /items?page[limit]=N`), `--repeat` times. The bench samples the server's RSS and
// sends `/healthz` every 100 ms meanwhile, and reports the peak RSS over the idle one, the
// slowest `/healthz` (the stall everyone else sees), and the answers' statuses.
// Bodies are read and dropped as they arrive, so the bench process holds none of them.
// --root <checkout>: the checkout to run (default: this one), for a before/after run.
// Usage: npx tsx bench/large-pages.ts --engine embedded|postgres [--records 120] [--kb 900]
//          [--concurrency 4,12] [--repeat 2] [--root <checkout>]
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import {
  benchDatabase,
  printTable,
  rssMb,
  serverEnv,
  startServeProcess,
  stopServeProcess,
} from './support.ts';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'embedded' },
    records: { type: 'string', default: '120' },
    kb: { type: 'string', default: '900' },
    concurrency: { type: 'string', default: '4,12' },
    repeat: { type: 'string', default: '2' },
    root: { type: 'string', default: process.cwd() },
  },
});
const ENGINE = values.engine === 'postgres' ? 'postgres' : 'embedded';
const RECORDS = Number(values.records);
const VALUE_BYTES = Number(values.kb) * 1000;
const TOKEN = 'bench-pages-token-00000000001';

/** Random base64: a value that neither compression nor deduplication shrinks. */
const largeText = () =>
  randomBytes(Math.ceil((VALUE_BYTES * 3) / 4))
    .toString('base64')
    .slice(0, VALUE_BYTES);

/** Reads a response to its end, keeping nothing but its length. */
async function drain(response: Response): Promise<number> {
  if (!response.body) return 0;
  let bytes = 0;
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read())
    bytes += part.value.byteLength;
  return bytes;
}

async function probeHealth(url: string, until: () => boolean): Promise<number> {
  let slowest = 0;
  while (!until()) {
    const started = performance.now();
    await drain(await fetch(`${url}/healthz`));
    slowest = Math.max(slowest, performance.now() - started);
    await sleep(100);
  }
  return slowest;
}

async function sampleRss(pid: number, until: () => boolean): Promise<number> {
  let peak = 0;
  while (!until()) {
    peak = Math.max(peak, rssMb(pid));
    await sleep(100);
  }
  return peak;
}

const database = await benchDatabase(ENGINE);
const rows: Record<string, string | number>[] = [];
const server = await startServeProcess(resolve(values.root), {
  FIELDHOUSE_ADMIN_TOKEN: TOKEN,
  ...serverEnv(database),
});
try {
  const client = buildClient({ apiToken: TOKEN, baseUrl: server.url });
  const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  await client.fields.create(model.id, { label: 'Body', api_key: 'body', field_type: 'text' });
  for (let i = 0; i < RECORDS; i++)
    await client.items.create({
      item_type: { type: 'item_type', id: model.id },
      body: largeText(),
    });
  const pid = server.child.pid ?? 0;
  const idle = rssMb(pid);
  const page = `${server.url}/items?filter[type]=article&page[limit]=${RECORDS}`;
  const headers = {
    Authorization: `Bearer ${TOKEN}`,
    Accept: 'application/json',
    'X-Api-Version': '3',
  };
  for (const concurrency of values.concurrency.split(',').map(Number)) {
    for (let round = 1; round <= Number(values.repeat); round++) {
      let done = false;
      const statuses = new Map<number, number>();
      let bytes = 0;
      const health = probeHealth(server.url, () => done);
      const rss = sampleRss(pid, () => done);
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          const response = await fetch(page, { headers });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const answered = await drain(response);
          bytes += answered;
        }),
      );
      done = true;
      rows.push({
        engine: ENGINE,
        concurrency: String(concurrency),
        round: String(round),
        'idle RSS MB': idle,
        'peak RSS MB': await rss,
        'slowest /healthz ms': await health,
        statuses: [...statuses].map(([status, n]) => `${status}×${n}`).join(' '),
        'MB answered': bytes / 1024 / 1024,
      });
    }
  }
} finally {
  await stopServeProcess(server.child);
  await database.drop();
}
printTable(rows);
