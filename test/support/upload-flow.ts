import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { buildClient } from '@datocms/cma-client-node';
import { jpegWithExif, localFile, md5, solidImage } from './images.ts';
import { ADMIN_TOKEN, type SuiteServer } from './server.ts';

type SeenRequest = { method: string; url: string; headers: Headers };

/**
 * The official client's upload helpers against `server`, whatever its storage: every
 * request the client sends is recorded, so a test can check what went where.
 */
export function uploadFlowTests(server: SuiteServer): void {
  const seen: SeenRequest[] = [];
  const client = () =>
    buildClient({
      apiToken: ADMIN_TOKEN,
      baseUrl: server.baseUrl,
      autoRetry: false,
      fetchFn: async (url, init) => {
        seen.push({
          method: init?.method ?? 'GET',
          url: String(url),
          headers: new Headers(init?.headers as HeadersInit),
        });
        return fetch(url, init);
      },
    });

  test('createFromLocalFile: request a URL, PUT the bytes with no Authorization, create the upload', async () => {
    await server.ready();
    const path = localFile(
      'grey-square.png',
      await solidImage(120, 80, { r: 128, g: 128, b: 128 }),
    );
    seen.length = 0;
    const upload = await client().uploads.createFromLocalFile({
      localPath: path,
      author: 'Ada',
      tags: ['launch', 'launch', ' hero '],
      default_field_metadata: { alt: { en: 'A grey square' } },
    });
    const put = seen.find((request) => request.method === 'PUT');
    assert.ok(put, 'the bytes were PUT');
    assert.equal(put.headers.get('authorization'), null);
    assert.ok(!put.url.startsWith(`${server.baseUrl}/uploads`), 'the PUT goes to the upload URL');
    assert.match(upload.path, /^\/\d+\/\d+-grey-square\.png$/);
    assert.equal(upload.filename, 'grey-square.png');
    assert.equal(upload.basename, 'grey-square');
    assert.ok(upload.url.endsWith(upload.path));
    assert.equal(upload.size, (await solidImage(120, 80, { r: 128, g: 128, b: 128 })).length);
    assert.equal(upload.md5, md5(path));
    assert.equal(upload.mime_type, 'image/png');
    assert.equal(upload.format, 'png');
    assert.equal(upload.is_image, true);
    assert.equal(upload.width, 120);
    assert.equal(upload.height, 80);
    assert.match(upload.blurhash ?? '', /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{10,}$/);
    assert.ok(Buffer.from(upload.thumbhash ?? '', 'base64').length > 5);
    assert.deepEqual(upload.colors, [{ red: 128, green: 128, blue: 128, alpha: 255 }]);
    assert.deepEqual(upload.smart_tags, ['gray']);
    assert.deepEqual(upload.tags, ['launch', 'hero']);
    assert.equal(upload.author, 'Ada');
    assert.equal(upload.default_field_metadata.alt.en, 'A grey square');
    assert.equal(upload.creator?.type, 'access_token');
    assert.deepEqual(upload.meta.antivirus.status, 'skipped');
    assert.deepEqual(await client().uploads.find(upload.id), upload);
  });

  test('skipCreationIfAlreadyExists finds the upload by md5 instead of uploading again', async () => {
    const path = localFile('twice.png', await solidImage(10, 10, { r: 10, g: 200, b: 30 }));
    const first = await client().uploads.createFromLocalFile({ localPath: path });
    seen.length = 0;
    const again = await client().uploads.createFromLocalFile({
      localPath: path,
      skipCreationIfAlreadyExists: true,
    });
    assert.equal(again.id, first.id);
    assert.equal(seen.filter((request) => request.method !== 'GET').length, 0, 'nothing written');
  });

  test('the type is sniffed from the content, not the name; files that are not images are kept as they are', async () => {
    const disguised = await client().uploads.createFromLocalFile({
      localPath: localFile('notes.txt', await solidImage(4, 4, { r: 0, g: 0, b: 255 })),
    });
    assert.equal(disguised.mime_type, 'image/png');
    assert.equal(disguised.is_image, true);
    const text = await client().uploads.createFromLocalFile({
      localPath: localFile('readme.txt', 'plain words\n'),
    });
    assert.deepEqual(
      [
        text.mime_type,
        text.format,
        text.is_image,
        text.width,
        text.blurhash,
        text.colors,
        text.exif_info,
      ],
      ['text/plain', 'txt', false, null, null, [], {}],
    );
  });

  test('EXIF is read without its GPS position', async () => {
    const photo = await client().uploads.createFromLocalFile({
      localPath: localFile('camera.jpg', await jpegWithExif()),
    });
    assert.equal(photo.format, 'jpg');
    assert.equal(photo.mime_type, 'image/jpeg');
    assert.equal(photo.exif_info.make, 'Fieldcam');
    assert.equal(photo.exif_info.model, 'FC-1');
    assert.doesNotMatch(JSON.stringify(photo.exif_info), /gps|latitude|48/i);
  });

  let origin = '';
  const files = createServer((request, response) => {
    if (request.url === '/media/remote-photo.webp') {
      solidImage(30, 20, { r: 250, g: 20, b: 20 }, 'webp').then((bytes) => response.end(bytes));
    } else response.writeHead(404).end();
  });
  before(async () => {
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  after(() => files.close());

  test('createFromUrl: the client downloads the file and uploads it', async () => {
    const upload = await client().uploads.createFromUrl({
      url: `${origin}/media/remote-photo.webp`,
    });
    assert.equal(upload.filename, 'remote-photo.webp');
    assert.deepEqual([upload.format, upload.width, upload.height], ['webp', 30, 20]);
    assert.deepEqual(upload.smart_tags, ['red']);
  });
}
