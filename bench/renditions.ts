// Benchmark: image renditions of asset URLs, against a Fieldhouse started in this process
// on a fresh database and local storage, with a 2000×1500 photo-like JPEG uploaded.
// - first rendition: GET <url>?w=800&fm=webp with the rendition cache emptied before each
//   run (decode, resize, encode, store), p50 and p90, beside the same resize and encode
//   in sharp alone (what the machine's load leaves of the work itself);
// - cached rendition: the same URL served from the cache, against a plain Node HTTP server
//   streaming the same file from disk (stat + createReadStream), requests interleaved in
//   the same run; p50 of each and their ratio.
// Usage: npx tsx bench/renditions.ts [--db embedded|postgres] [--runs 15] [--requests 400]
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    runs: { type: 'string', default: '15' },
    requests: { type: 'string', default: '400' },
  },
});
const engine = values.db === 'postgres' ? 'postgres' : 'embedded';
const runs = Number(values.runs);
const requests = Number(values.requests);

/** A photo-like 2000×1500 JPEG: smooth gradients with some grain, quality 85. */
async function photo(path: string): Promise<void> {
  const width = 2000;
  const height = 1500;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      const grain = ((at * 2654435761) >>> 27) & 0x0f;
      pixels[at] = ((x * 255) / width + grain) & 0xff;
      pixels[at + 1] = ((y * 255) / height + grain) & 0xff;
      pixels[at + 2] = (((x + y) * 128) / (width + height) + 64 + grain) & 0xff;
    }
  }
  writeFileSync(
    path,
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 85 })
      .toBuffer(),
  );
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

const folder = mkdtempSync(join(tmpdir(), 'fieldhouse-bench-renditions-'));
const database = await benchDatabase(engine);
const token = 'fieldhouse-bench-admin-token';
const renditionsDir = join(folder, 'renditions');
const config = loadConfig({ ...serverEnv(database) });
const server = await startServer({
  ...config,
  port: 0,
  logLevel: 'silent',
  adminToken: token,
  storage: { kind: 'local', dir: join(folder, 'storage') },
  images: { ...config.images, renditionsDir },
});
const plain = createServer((request, response) => {
  // What Node does to serve a file from disk: stat it, stream it.
  const file = decodeURIComponent(request.url ?? '/');
  const info = statSync(file);
  response.writeHead(200, { 'content-type': 'image/webp', 'content-length': info.size });
  createReadStream(file).pipe(response);
});
try {
  const image = join(folder, 'photo.jpg');
  await photo(image);
  const client = buildClient({ apiToken: token, baseUrl: server.url, autoRetry: false });
  const upload = await client.uploads.createFromLocalFile({ localPath: image });
  const url = `${upload.url}?w=800&fm=webp`;

  const first: number[] = [];
  await timed(url); // warm-up: sharp's and the route's first use
  for (let run = 0; run < runs; run++) {
    rmSync(renditionsDir, { recursive: true, force: true });
    first.push(await timed(url));
  }
  first.sort((a, b) => a - b);
  // The same work in sharp alone, in this process: what the machine's load leaves of it.
  const alone: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await sharp(image).resize(800).webp({ quality: 75, effort: 2 }).toBuffer();
    alone.push(performance.now() - started);
  }
  alone.sort((a, b) => a - b);

  const rendered = await fetch(url);
  const etag = (rendered.headers.get('etag') ?? '').slice(1, -1);
  const renditionBytes = (await rendered.arrayBuffer()).byteLength;
  const file = join(renditionsDir, etag.slice(0, 2), `${etag}.webp`);
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}${encodeURI(file)}`;
  const cached: number[] = [];
  const disk: number[] = [];
  for (let i = 0; i < 50; i++) await Promise.all([timed(url), timed(plainUrl)]); // warm-up
  for (let i = 0; i < requests; i++) {
    cached.push(await timed(url));
    disk.push(await timed(plainUrl));
  }
  cached.sort((a, b) => a - b);
  disk.sort((a, b) => a - b);
  printTable([
    {
      engine,
      'source KB': Math.round(statSync(image).size / 1024),
      'rendition KB': Math.round(renditionBytes / 1024),
      'first p50 ms': percentile(first, 50).toFixed(1),
      'first p90 ms': percentile(first, 90).toFixed(1),
      'sharp alone p50 ms': percentile(alone, 50).toFixed(1),
      'cached p50 ms': percentile(cached, 50).toFixed(2),
      'node disk p50 ms': percentile(disk, 50).toFixed(2),
      'cached / disk': (percentile(cached, 50) / percentile(disk, 50)).toFixed(2),
    },
  ]);
} finally {
  plain.close();
  await server.close();
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
}
