// Benchmark: the server's memory while many large uploads arrive at once. 50 concurrent
// createFromLocalFile calls of a 5 MB photo-like JPEG (request, PUT of the bytes,
// POST /uploads with the metadata computed) against a real `fieldhouse serve` process on
// local storage; its RSS is sampled every 20 ms. Bytes are streamed to storage and images
// decoded shrunk, so the peak over the settled baseline must stay far below 50 × 5 MB.
// Usage: npx tsx bench/upload-memory.ts [--db embedded|postgres] [--uploads 50] [--mb 5]
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { startFieldhouse } from './fieldhouse-schema-api.ts';
import { benchDatabase, printTable, rssMb } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    uploads: { type: 'string', default: '50' },
    mb: { type: 'string', default: '5' },
  },
});
const engine = values.db === 'postgres' ? 'postgres' : 'embedded';
const uploads = Number(values.uploads);
const TOKEN = 'bench-admin-token-upload-memory';

/** Noise compresses badly: a JPEG of about `mb` MB at quality 92. */
async function photoLikeJpeg(path: string, mb: number): Promise<void> {
  const side = Math.round(1150 * Math.sqrt(mb));
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i * 2654435761) >>> 24) & 0xff;
  const jpeg = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  writeFileSync(path, jpeg);
}

const folder = mkdtempSync(join(tmpdir(), 'fieldhouse-bench-upload-memory-'));
const database = await benchDatabase(engine);
const fieldhouse = await startFieldhouse(database, TOKEN);
try {
  const image = join(folder, 'photo.jpg');
  await photoLikeJpeg(image, Number(values.mb));
  // Warm-up: the code paths, sharp's and the database's first allocations.
  for (let i = 0; i < 3; i++)
    await fieldhouse.client.uploads.createFromLocalFile({ localPath: image });
  const baseline = rssMb(fieldhouse.pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(fieldhouse.pid));
  }, 20);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: uploads }, () =>
      fieldhouse.client.uploads.createFromLocalFile({ localPath: image }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  printTable([
    {
      engine,
      uploads,
      'file MB': statSync(image).size / 1024 / 1024,
      'all done s': seconds,
      'RSS before MB': baseline,
      'RSS peak MB': peak,
      'peak − before MB': peak - baseline,
    },
  ]);
} finally {
  await fieldhouse.stop();
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
}
