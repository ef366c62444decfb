// Benchmark: the web console's first page, in bytes on the wire (gzip), and the first paint
// of a model's record list holding 10,000 records, in headless Chromium on loopback.
// Usage: npx tsx bench/console.ts [--records 10000] [--runs 7]
// Targets (issue): first page ≤ 300 KB gzipped; record list painted ≤ 1 s.
import { parseArgs } from 'node:util';
import { launchChromium } from '../test/support/browser.ts';
import { startTestServer } from '../test/support/server.ts';
import { seedPublishedRecords } from './seed-records.ts';
import { percentile } from './support.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '7' },
  },
});

/** What the page fetched before its rows were in, and when: the waterfall to look at. */
async function timeline(tab: import('playwright-core').Page): Promise<string> {
  const entries = await tab.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry as PerformanceResourceTiming)
      .map((entry) => [entry.name, entry.startTime, entry.responseEnd] as const),
  );
  return entries
    .map(([name, start, end]) => {
      const url = new URL(name);
      const shown = `${url.pathname}${url.search}`.slice(0, 70);
      return `  ${start.toFixed(0).padStart(5)} → ${end.toFixed(0).padStart(5)} ms  ${shown}`;
    })
    .join('\n');
}

const server = await startTestServer();
const browser = await launchChromium();
try {
  const client = server.client();
  const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  await client.fields.create(model.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await seedPublishedRecords(server, model.id, Number(args.records), 'Record');

  const apiStarted = performance.now();
  await client.items.rawList({
    filter: { type: model.id },
    order_by: '_updated_at_DESC',
    page: { offset: 0, limit: 25 },
    version: 'current',
  });
  console.log(`the list's API call alone: ${(performance.now() - apiStarted).toFixed(0)} ms`);

  // The first page: the sign-in screen, every byte it loads as sent (gzip).
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes: { url: string; bytes: number }[] = [];
  page.on('requestfinished', async (request) => {
    const { responseBodySize } = await request.sizes();
    sizes.push({ url: request.url(), bytes: responseBodySize });
  });
  await page.goto(`${server.baseUrl}/`, { waitUntil: 'networkidle' });
  await page.getByLabel('API token').waitFor();
  const firstPage = sizes.reduce((total, entry) => total + entry.bytes, 0);
  console.log(
    `first page (sign-in): ${(firstPage / 1024).toFixed(1)} KB gzipped in ${sizes.length} files`,
  );
  await context.close();

  // The record list: a signed-in tab opening the list's URL; painted = its rows are in.
  // A first visit is a fresh browser context (nothing cached); a cached visit is a second
  // tab in that context (the console's files cached, immutable).
  const listUrl = `${server.baseUrl}/editor/main/item_types/${model.id}/items`;
  const cold: number[] = [];
  const warm: number[] = [];
  for (let run = 0; run < Number(args.runs); run++) {
    const listContext = await browser.newContext();
    await listContext.addInitScript((token) => {
      sessionStorage.setItem('fieldhouse-console-token', token);
    }, server.adminToken);
    for (const visits of [cold, warm]) {
      const tab = await listContext.newPage();
      await tab.goto(listUrl);
      await tab.locator('tbody tr').first().waitFor();
      visits.push(await tab.evaluate(() => performance.now()));
      if (run === 0 && visits === cold) {
        console.log(`record list: ${await tab.locator('caption').innerText()}`);
        console.log(await timeline(tab));
      }
      await tab.close();
    }
    await listContext.close();
  }
  for (const [name, visits] of [
    ['first visit', cold],
    ['cached files', warm],
  ] as const) {
    visits.sort((a, b) => a - b);
    console.log(
      `record list first paint, ${name}: median ${percentile(visits, 50).toFixed(0)} ms, min ${visits[0]?.toFixed(0)} ms, max ${visits.at(-1)?.toFixed(0)} ms (${visits.length} runs)`,
    );
  }
} finally {
  await browser.close();
  await server.close();
}
