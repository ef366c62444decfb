// Benchmark: one 1 MB image through the official client's createFromLocalFile (upload
// request, PUT of the bytes, POST /uploads with the metadata computed), end to end,
// against a Fieldhouse started in this process on a fresh database and local storage.
// Prints p50 and p90 over the runs and the image's size.
// Usage: npx tsx bench/uploads.ts [--db embedded|postgres] [--runs 20]
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { benchDatabase, percentile, printTable, serverEnv } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    runs: { type: 'string', default: '20' },
  },
});
const engine = values.db === 'postgres' ? 'postgres' : 'embedded';
const runs = Number(values.runs);

/** A photo-like 1 MB JPEG: noise compresses badly, so 1 MB holds about 1150×1150 px at quality 92. */
async function oneMegabyteJpeg(path: string): Promise<void> {
  const side = 1150;
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i * 2654435761) >>> 24) & 0xff;
  writeFileSync(
    path,
    await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 92 })
      .toBuffer(),
  );
}

const folder = mkdtempSync(join(tmpdir(), 'fieldhouse-bench-uploads-'));
const database = await benchDatabase(engine);
const token = 'fieldhouse-bench-admin-token';
const server = await startServer({
  ...loadConfig({ ...serverEnv(database) }),
  port: 0,
  logLevel: 'silent',
  adminToken: token,
  storage: { kind: 'local', dir: join(folder, 'storage') },
});
try {
  const image = join(folder, 'photo.jpg');
  await oneMegabyteJpeg(image);
  const client = buildClient({ apiToken: token, baseUrl: server.url, autoRetry: false });
  await client.uploads.createFromLocalFile({ localPath: image }); // warm-up
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await client.uploads.createFromLocalFile({ localPath: image });
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  printTable([
    {
      engine,
      runs,
      'image KB': Math.round(statSync(image).size / 1024),
      'p50 ms': percentile(samples, 50).toFixed(1),
      'p90 ms': percentile(samples, 90).toFixed(1),
    },
  ]);
} finally {
  await server.close();
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
}
