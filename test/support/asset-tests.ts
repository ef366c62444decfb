import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { before, test } from 'node:test';
import sharp from 'sharp';
import { imgixUrl } from '../../src/assets/imgix-params.ts';
import { errorCodesOf } from './api-errors.ts';
import { localFile, solidImage } from './images.ts';
import type { SuiteServer } from './server.ts';

type Uploaded = { url: string; md5: string; path: string; size: number };

/** Left half red, right half blue: where a crop lands shows in the colour it keeps. */
async function halves(width: number, height: number): Promise<Buffer> {
  const half = await sharp({
    create: { width: width / 2, height, channels: 3, background: { r: 255, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 3, background: { r: 0, g: 0, b: 255 } },
  })
    .composite([{ input: half, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

async function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(url, { method, headers });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

async function shape(url: string, headers: Record<string, string> = {}) {
  const response = await get(url, headers);
  assert.equal(response.status, 200, `${url}: ${response.body.toString().slice(0, 300)}`);
  const metadata = await sharp(response.body).metadata();
  return {
    width: metadata.width,
    height: metadata.height,
    format: metadata.format,
    type: response.headers.get('content-type'),
    response,
  };
}

/** The renditions counter of the server's /metrics, by outcome. */
async function renditionCounts(baseUrl: string) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const counts = { cached: 0, rendered: 0, joined: 0 };
  for (const match of text.matchAll(
    /^fieldhouse_asset_renditions_total\{outcome="(\w+)"\} (\d+)/gm,
  )) {
    counts[match[1] as keyof typeof counts] = Number(match[2]);
  }
  return counts;
}

/** Asset URLs of `server`, whatever its storage: originals, renditions, cache, refusals. */
export function assetTests(server: SuiteServer): void {
  const client = server.client();
  let photo: Uploaded;
  let split: Uploaded;
  let text: Uploaded;
  let svg: Uploaded;
  const svgSource =
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>alert(1)</script><rect width="40" height="20" fill="#0f0"/></svg>';

  before(async () => {
    await server.ready();
    const upload = async (name: string, bytes: Buffer | string) =>
      (await client.uploads.createFromLocalFile({ localPath: localFile(name, bytes) })) as Uploaded;
    photo = await upload(
      'photo.jpg',
      await solidImage(400, 300, { r: 200, g: 120, b: 40 }, 'jpeg'),
    );
    split = await upload('split.png', await halves(200, 100));
    text = await upload('notes.txt', 'plain words\n');
    svg = await upload('logo.svg', svgSource);
  });

  test('an original: its bytes streamed with type, length, ETag, Last-Modified and immutable caching', async () => {
    assert.ok(photo.url.startsWith(`${server.baseUrl}/assets/`), photo.url);
    const response = await get(photo.url);
    assert.equal(response.status, 200);
    assert.equal(response.body.length, photo.size);
    assert.equal(response.headers.get('content-type'), 'image/jpeg');
    assert.equal(response.headers.get('content-length'), String(photo.size));
    assert.equal(response.headers.get('etag'), `"${photo.md5}"`);
    assert.ok(Date.parse(response.headers.get('last-modified') ?? '') > 0);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('accept-ranges'), 'bytes');
    assert.equal((await sharp(response.body).metadata()).width, 400);

    const head = await get(photo.url, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers.get('content-length'), String(photo.size));
    assert.equal(head.headers.get('etag'), `"${photo.md5}"`);
  });

  test('conditional and partial GETs: 304 on a matching ETag, 206 for a range, 416 past the end', async () => {
    const etag = `"${photo.md5}"`;
    const unchanged = await get(photo.url, { 'if-none-match': etag });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.body.length, 0);
    assert.equal((await get(photo.url, { 'if-none-match': '"other"' })).status, 200);

    const whole = (await get(photo.url)).body;
    const part = await get(photo.url, { range: 'bytes=10-19' });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 10-19/${photo.size}`);
    assert.deepEqual(part.body, whole.subarray(10, 20));
    const tail = await get(photo.url, { range: 'bytes=-5' });
    assert.deepEqual(tail.body, whole.subarray(whole.length - 5));
    const stale = await get(photo.url, { range: 'bytes=0-3', 'if-range': '"other"' });
    assert.equal(stale.status, 200, 'If-Range naming another version gets the whole file');
    const past = await get(photo.url, { range: `bytes=${photo.size}-` });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${photo.size}`);
  });

  test('unknown paths and paths no upload uses are 404', async () => {
    const missing = await fetch(`${server.baseUrl}/assets/1/123-nothing.png`);
    assert.equal(missing.status, 404);
    assert.deepEqual(errorCodesOf(await missing.json()), ['NOT_FOUND']);
    const request = await client.uploadRequest.create({ filename: 'never-created.png' });
    assert.equal((await fetch(`${server.baseUrl}/assets${request.id}`)).status, 404);
    assert.equal((await fetch(`${server.baseUrl}/assets/..%2F..%2Fetc%2Fpasswd`)).status, 404);
  });

  test('w, h and fit: each mode gives the size imgix gives', async () => {
    const size = async (query: string) => {
      const { width, height } = await shape(`${photo.url}?${query}`);
      return `${width}x${height}`;
    };
    // The source is 400×300.
    assert.equal(await size('w=200'), '200x150');
    assert.equal(await size('h=60'), '80x60');
    assert.equal(await size('w=100&h=100'), '100x75', 'clip (the default) fits inside');
    assert.equal(await size('w=100&h=100&fit=crop'), '100x100');
    assert.equal(await size('w=100&h=100&fit=facearea'), '100x100');
    assert.equal(await size('w=800&h=800&fit=max'), '400x300', 'max never enlarges');
    assert.equal(await size('w=800&h=800&fit=clip'), '800x600', 'clip does');
    assert.equal(
      await size('w=800&h=400&fit=min'),
      '400x200',
      'min crops to the ratio, not larger',
    );
    assert.equal(await size('w=100&h=100&fit=scale'), '100x100');
    assert.equal(await size('w=100&h=100&fit=fill'), '100x100');
    assert.equal(await size('w=800&h=800&fit=fillmax'), '800x800');
    assert.equal(await size('w=100&h=100&fit=clamp'), '100x100');
    assert.equal(await size('w=0.5'), '200x150', 'a fraction of the source');
    assert.equal(await size('w=100&dpr=2'), '200x150');
    assert.equal(await size('w=320&fit=crop&ar=16:9'), '320x180');
    assert.equal(await size('rect=0,0,100,50'), '100x50');
    assert.equal(await size('rect=0,0,100,50&w=50'), '50x25');
    assert.equal(await size('w=300&max-w=120'), '120x90');
    assert.equal(await size('w=40&min-w=80'), '80x60');
  });

  test('URLs built by imgixUrl from GraphQL-style parameters render as asked', async () => {
    const url = imgixUrl(photo.url, { w: 120, h: 40, fit: 'crop', fm: 'webp', maxW: 100 });
    const { width, height, format } = await shape(url);
    assert.deepEqual([width, height, format], [100, 33, 'webp']);
  });

  test('crop: the focal point, edges and zoom choose what is kept', async () => {
    const colour = async (query: string) => {
      const { response } = await shape(`${split.url}?${query}`);
      return pixel(response.body, 5, 5);
    };
    const red = [255, 0, 0];
    const blue = [0, 0, 255];
    assert.deepEqual(await colour('w=10&h=10&fit=crop&crop=focalpoint&fp-x=0&fp-y=0.5'), red);
    assert.deepEqual(await colour('w=10&h=10&fit=crop&crop=focalpoint&fp-x=1&fp-y=0.5'), blue);
    assert.deepEqual(await colour('w=10&h=10&fit=crop&crop=left'), red);
    assert.deepEqual(await colour('w=10&h=10&fit=crop&crop=right'), blue);
    // Zoomed 4× around a point in the blue half: only blue is left.
    assert.deepEqual(
      await colour('w=50&h=50&fit=crop&crop=focalpoint&fp-x=0.6&fp-y=0.5&fp-z=4'),
      blue,
    );
    const { width } = await shape(`${split.url}?w=50&h=50&fit=crop&crop=entropy`);
    assert.equal(width, 50);
  });

  test('bg pads and flattens; blur softens', async () => {
    const padded = await shape(`${split.url}?w=100&h=100&fit=fill&bg=00ff00`);
    assert.deepEqual(await pixel(padded.response.body, 50, 2), [0, 255, 0], 'the pad is bg');
    const sharpEdge = await shape(`${split.url}?w=100`);
    const blurred = await shape(`${split.url}?w=100&blur=100`);
    assert.deepEqual(await pixel(sharpEdge.response.body, 45, 25), [255, 0, 0]);
    const [r, , b] = await pixel(blurred.response.body, 45, 25);
    assert.ok((r ?? 0) < 250 && (b ?? 0) > 5, 'the edge is mixed');
  });

  test('fm and auto=format choose the format; q the quality', async () => {
    const format = async (query: string, headers: Record<string, string> = {}) => {
      const { format, type, response } = await shape(`${photo.url}?${query}`, headers);
      return { format, type, vary: response.headers.get('vary') };
    };
    assert.deepEqual(await format('w=50&fm=webp'), {
      format: 'webp',
      type: 'image/webp',
      vary: null,
    });
    assert.equal((await format('w=50&fm=avif')).type, 'image/avif');
    assert.equal((await format('w=50&fm=png')).format, 'png');
    assert.equal((await format('w=50&fm=png8')).format, 'png');
    assert.equal((await format('w=50&fm=gif')).format, 'gif');
    assert.equal((await format('w=50&fm=pjpg')).format, 'jpeg');
    assert.equal((await format('w=50')).format, 'jpeg', 'the source format by default');
    const avif = await format('w=50&auto=format', { accept: 'image/avif,image/webp,*/*' });
    assert.deepEqual(avif, { format: 'heif', type: 'image/avif', vary: 'Accept' });
    const webp = await format('w=50&auto=format', { accept: 'image/webp,*/*' });
    assert.deepEqual(webp, { format: 'webp', type: 'image/webp', vary: 'Accept' });
    const plain = await format('w=50&auto=format', { accept: '*/*' });
    assert.deepEqual(plain, { format: 'jpeg', type: 'image/jpeg', vary: 'Accept' });
    const noisy = split.url;
    const low = (await get(`${noisy}?w=200&fm=jpg&q=5&blur=1`)).body.length;
    const high = (await get(`${noisy}?w=200&fm=jpg&q=100&blur=1`)).body.length;
    assert.ok(low < high, `q=5 (${low} B) is smaller than q=100 (${high} B)`);
    const compressed = (await get(`${noisy}?w=200&fm=jpg&blur=1&auto=compress`)).body.length;
    const standard = (await get(`${noisy}?w=200&fm=jpg&blur=1`)).body.length;
    assert.ok(compressed < standard, 'auto=compress lowers the quality');
  });

  test('a rendition is rendered once and then served from the cache, with its own ETag, 304 and ranges', async () => {
    const url = `${photo.url}?w=123&fm=webp`;
    const before = await renditionCounts(server.baseUrl);
    const first = await get(url);
    const afterFirst = await renditionCounts(server.baseUrl);
    assert.equal(afterFirst.rendered, before.rendered + 1);
    const second = await get(url);
    const afterSecond = await renditionCounts(server.baseUrl);
    assert.equal(afterSecond.rendered, afterFirst.rendered, 'not rendered again');
    assert.equal(afterSecond.cached, afterFirst.cached + 1);
    assert.deepEqual(second.body, first.body);
    const etag = second.headers.get('etag') ?? '';
    assert.match(etag, /^"[0-9a-f]{64}"$/);
    assert.equal(second.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await get(url, { 'if-none-match': etag })).status, 304);
    const part = await get(url, { range: 'bytes=0-11' });
    assert.equal(part.status, 206);
    assert.equal(part.body.subarray(8, 12).toString(), 'WEBP');
    // Parameters spelled otherwise (order, repeated defaults) share the rendition.
    await get(`${photo.url}?fm=webp&w=123&fit=clip&dpr=1`);
    assert.equal((await renditionCounts(server.baseUrl)).rendered, afterFirst.rendered);
    const files = readdirSync(server.config.images.renditionsDir, { recursive: true });
    assert.ok(files.some((file) => String(file).endsWith(`${etag.slice(1, -1)}.webp`)));
  });

  test('identical requests at the same time share one render', async () => {
    const url = `${photo.url}?w=211&fm=avif`;
    const before = await renditionCounts(server.baseUrl);
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(url)));
    for (const answer of answers) assert.deepEqual(answer.body, answers[0]?.body);
    const after = await renditionCounts(server.baseUrl);
    assert.equal(after.rendered - before.rendered, 1, 'one render');
    assert.equal(after.joined - before.joined + (after.cached - before.cached), 5);
  });

  test('absurd sizes and malformed parameters are refused; unknown parameters ignored', async () => {
    const refused = async (query: string) => {
      const response = await fetch(`${photo.url}?${query}`);
      const body = await response.json();
      assert.equal(response.status, 422, `${query}: ${JSON.stringify(body)}`);
      assert.deepEqual(errorCodesOf(body), ['INVALID_PARAMS'], query);
    };
    await refused('w=9000');
    await refused('w=3000&dpr=5');
    await refused('w=8000&h=8000&fit=scale');
    await refused('w=-1');
    await refused('w=abc');
    await refused('fit=cover');
    await refused('fm=tiff');
    await refused('dpr=9');
    await refused('q=0');
    await refused('ar=16x9&fit=crop&w=100');
    await refused('bg=green');
    const ignored = await get(`${photo.url}?txt=hello&mark-x=4`);
    assert.equal(ignored.status, 200);
    assert.equal(ignored.headers.get('etag'), `"${photo.md5}"`, 'the original');
  });

  test('files that are not images ignore parameters; dl downloads', async () => {
    const response = await get(`${text.url}?w=100&fm=png&fit=nonsense`);
    assert.equal(response.status, 200);
    assert.equal(response.body.toString(), 'plain words\n');
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const download = await get(`${photo.url}?dl=holiday.jpg`);
    assert.equal(
      download.headers.get('content-disposition'),
      `attachment; filename="holiday.jpg"; filename*=UTF-8''holiday.jpg`,
    );
  });

  test('SVG is served as it is inside a sandbox, and rasterized only when fm asks for it', async () => {
    const original = await get(`${svg.url}?w=20`);
    assert.equal(original.status, 200);
    assert.equal(original.body.toString(), svgSource, 'w alone keeps the SVG');
    assert.equal(original.headers.get('content-type'), 'image/svg+xml');
    assert.equal(
      original.headers.get('content-security-policy'),
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    assert.equal(original.headers.get('x-content-type-options'), 'nosniff');
    const raster = await shape(`${svg.url}?fm=png&w=20`);
    assert.deepEqual([raster.format, raster.width, raster.height], ['png', 20, 10]);
    assert.equal(raster.response.headers.get('content-security-policy'), null);
    assert.deepEqual(await pixel(raster.response.body, 10, 5), [0, 255, 0]);
  });
}
