// Real-world scripts that touch images, as DatoCMS users run them: the `datocms` CLI's
// `migrations:run` of a script that uploads a file, a migration that turns HTML with
// images into structured text (the images uploaded, each in an image block), and a content
// import with images through the official client.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { localFile, solidImage } from '../support/images.ts';
import { useTestServer } from '../support/server.ts';

const run = promisify(execFile);
const DATOCMS = join(process.cwd(), 'node_modules', '.bin', 'datocms');
/** ESM-only libraries the HTML migration imports by absolute URL (it runs from a temp dir). */
const LIBRARIES = {
  htmlToStructuredText: import.meta.resolve('datocms-html-to-structured-text'),
  parse5: import.meta.resolve('parse5'),
};
/** The official client's CommonJS build, which the migration requires for buildBlockRecord. */
const CMA_CLIENT = join(process.cwd(), 'node_modules/@datocms/cma-client-node/dist/cjs/index.js');

const server = useTestServer();
const client = server.client();
let workDir: string;
let images: Server;
let imagesUrl: string;

async function datocms(...args: string[]): Promise<string> {
  const { stdout } = await run(DATOCMS, args, {
    cwd: workDir,
    env: { ...process.env, NO_COLOR: '1', DATOCMS_API_TOKEN: server.adminToken },
    timeout: 180_000,
  });
  return stdout;
}

function migration(name: string, source: string): void {
  const dir = join(workDir, 'migrations');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), source);
}

before(async () => {
  await server.ready();
  workDir = mkdtempSync(join(tmpdir(), 'fieldhouse-datocms-uploads-'));
  writeFileSync(
    join(workDir, 'datocms.config.json'),
    JSON.stringify({ profiles: { default: { baseUrl: server.baseUrl } } }),
  );
  // The old site the HTML comes from: its images, served over HTTP.
  const served = new Map<string, Buffer>([
    ['/img/harbour.png', await solidImage(320, 200, { r: 20, g: 60, b: 160 })],
    ['/img/lighthouse.jpg', await solidImage(120, 240, { r: 230, g: 230, b: 230 }, 'jpeg')],
  ]);
  images = createServer((request, response) => {
    const body = served.get(request.url ?? '');
    response.writeHead(body ? 200 : 404);
    response.end(body);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((resolve) => images?.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

test('migrations:run of a script that uploads a file: the upload and the record that uses it are in the new environment', async () => {
  writeFileSync(join(workDir, 'logo.png'), await solidImage(64, 64, { r: 250, g: 120, b: 0 }));
  migration(
    '1700000100_brand_logo.js',
    `const path = require('node:path');
module.exports = async function (client) {
  const brand = await client.itemTypes.create({ name: 'Brand', api_key: 'brand', singleton: true });
  await client.fields.create(brand.id, { label: 'Name', api_key: 'name', field_type: 'string' });
  await client.fields.create(brand.id, {
    label: 'Logo', api_key: 'logo', field_type: 'file',
    validators: { required: {}, extension: { extensions: [], predefined_list: 'image' } },
  });
  const logo = await client.uploads.createFromLocalFile({
    localPath: path.join(process.cwd(), 'logo.png'),
    skipCreationIfAlreadyExists: true,
    default_field_metadata: { alt: { en: 'Our logo' } },
  });
  await client.items.create({
    item_type: { type: 'item_type', id: brand.id },
    name: 'Fieldhouse',
    logo: { upload_id: logo.id, focal_point: { x: 0.5, y: 0.5 } },
  });
};
`,
  );
  const output = await datocms('migrations:run', '--destination=with-logo');
  assert.match(output, /Successfully run 1 migration script/);

  const fork = server.client({ environment: 'with-logo' });
  const [logo, ...others] = await fork.uploads.list();
  assert.ok(logo);
  assert.equal(others.length, 0);
  assert.equal(logo.filename, 'logo.png');
  assert.deepEqual([logo.width, logo.height, logo.is_image], [64, 64, true]);
  const [brand] = await fork.items.list({ filter: { type: 'brand' } });
  assert.deepEqual(brand?.logo, {
    upload_id: logo.id,
    alt: null,
    title: null,
    custom_data: {},
    focal_point: { x: 0.5, y: 0.5 },
    poster_time: null,
  });
  assert.deepEqual(
    (await fork.uploads.references(logo.id)).map((item) => item.id),
    [brand?.id],
  );
  // The primary environment has neither: the script ran on the fork.
  assert.deepEqual(await client.uploads.list(), []);
});

test('a migration that turns HTML with images into structured text: each image uploaded once, in an image block', async () => {
  const post = await client.itemTypes.create({ name: 'Post', api_key: 'post' });
  await client.fields.create(post.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await client.fields.create(post.id, { label: 'Body', api_key: 'body', field_type: 'text' });
  const html = (image: string, alt: string) =>
    `<h2>Notes</h2><p>Before the picture.<img src="${imagesUrl}/img/${image}" alt="${alt}"> After it, <strong>bold</strong>.</p>`;
  const first = await client.items.create({
    item_type: { type: 'item_type', id: post.id },
    title: 'Harbour',
    body: `${html('harbour.png', 'The harbour')}<p>And again:</p><p><img src="${imagesUrl}/img/harbour.png"></p>`,
  });
  const second = await client.items.create({
    item_type: { type: 'item_type', id: post.id },
    title: 'Lighthouse',
    body: html('lighthouse.jpg', 'The lighthouse'),
  });

  migration(
    '1700000200_body_to_structured_text.js',
    `const { buildBlockRecord } = require(${JSON.stringify(CMA_CLIENT)});
module.exports = async function (client) {
  const { parse5ToStructuredText, visitChildren } = await import(${JSON.stringify(LIBRARIES.htmlToStructuredText)});
  const { parse } = await import(${JSON.stringify(LIBRARIES.parse5)});

  const imageBlock = await client.itemTypes.create({ name: 'Image block', api_key: 'image_block', modular_block: true });
  await client.fields.create(imageBlock.id, {
    label: 'Image', api_key: 'image', field_type: 'file',
    validators: { required: {}, extension: { predefined_list: 'transformable_image' } },
  });
  await client.fields.create('post', {
    label: 'Content', api_key: 'content', field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [imageBlock.id] },
      structured_text_links: { item_types: [] },
    },
  });

  // One upload per image URL, however many posts show it.
  const uploads = new Map();
  async function uploadOnce(url) {
    if (!uploads.has(url)) uploads.set(url, client.uploads.createFromUrl({ url, skipCreationIfAlreadyExists: true }));
    return uploads.get(url);
  }

  for await (const record of client.items.listPagedIterator({ filter: { type: 'post' } })) {
    const content = await parse5ToStructuredText(parse(record.body, { sourceCodeLocationInfo: true }), {
      preprocess: (tree) => {
        // Images may only be root-level blocks: lift each out of its paragraph.
        const lift = (node) => {
          if (!node.children) return;
          const children = [];
          for (const child of node.children) {
            if (child.type === 'element' && child.tagName === 'p' && child.children.some((c) => c.tagName === 'img')) {
              let run = [];
              const flush = () => { if (run.length) children.push({ ...child, children: run }); run = []; };
              for (const inner of child.children) {
                if (inner.tagName === 'img') { flush(); children.push(inner); } else run.push(inner);
              }
              flush();
            } else {
              lift(child);
              children.push(child);
            }
          }
          node.children = children;
        };
        lift(tree);
      },
      handlers: {
        img: async (createNode, node) => {
          const upload = await uploadOnce(node.properties.src);
          return createNode('block', {
            item: buildBlockRecord({
              item_type: { type: 'item_type', id: imageBlock.id },
              image: { upload_id: upload.id, alt: node.properties.alt || null },
            }),
          });
        },
      },
    });
    await client.items.update(record.id, { content });
  }
  await client.fields.destroy('post::body');
};
`,
  );
  // The recommended workflow: the scripts run on a fork of the primary (the logo script
  // first, which the primary has not run), which keeps the posts' ids.
  const output = await datocms('migrations:run', '--destination=structured-text');
  assert.match(output, /Successfully run 2 migration scripts/);
  const fork = server.client({ environment: 'structured-text' });

  const uploads = await fork.uploads.list();
  assert.deepEqual(uploads.map((upload) => upload.filename).sort(), [
    'harbour.png',
    'lighthouse.jpg',
    'logo.png',
  ]);
  const harbour = uploads.find((upload) => upload.filename === 'harbour.png');
  assert.ok(harbour);
  assert.deepEqual([harbour.width, harbour.height], [320, 200]);

  const migrated = await fork.items.find(first.id, { nested: true });
  assert.equal(migrated.body, undefined, 'the HTML field is gone');
  type Node = { type: string; children?: Node[]; item?: { attributes: Record<string, unknown> } };
  const root = (migrated.content as { document: Node }).document;
  assert.deepEqual(
    root.children?.map((node) => node.type),
    ['heading', 'paragraph', 'block', 'paragraph', 'paragraph', 'block'],
  );
  const blocks = root.children?.filter((node) => node.type === 'block') ?? [];
  assert.deepEqual(
    blocks.map((node) => node.item?.attributes.image),
    [
      {
        upload_id: harbour.id,
        alt: 'The harbour',
        title: null,
        custom_data: {},
        focal_point: null,
        poster_time: null,
      },
      {
        upload_id: harbour.id,
        alt: null,
        title: null,
        custom_data: {},
        focal_point: null,
        poster_time: null,
      },
    ],
  );
  assert.deepEqual(
    (await fork.uploads.references(harbour.id)).map((item) => item.id),
    [first.id],
  );
  const lighthouse = uploads.find((upload) => upload.filename === 'lighthouse.jpg');
  assert.deepEqual(
    (await fork.uploads.references(lighthouse?.id ?? '')).map((item) => item.id),
    [second.id],
  );
});

test('a content import with images: files uploaded once each, records with file, gallery and SEO values', async () => {
  const article = await client.itemTypes.create({ name: 'Article', api_key: 'imported_article' });
  await client.fields.create(article.id, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
  });
  await client.fields.create(article.id, {
    label: 'Cover',
    api_key: 'cover',
    field_type: 'file',
    validators: { required: {}, required_alt_title: { alt: true } },
  });
  await client.fields.create(article.id, {
    label: 'Photos',
    api_key: 'photos',
    field_type: 'gallery',
    validators: { size: { max: 3 }, image_dimensions: { width_min_value: 50 } },
  });
  await client.fields.create(article.id, {
    label: 'SEO',
    api_key: 'seo',
    field_type: 'seo',
    validators: { required_seo_fields: { title: true, image: true } },
  });

  // The export to import: entries naming local files, some shared between entries.
  const file = async (name: string, width: number, color: { r: number; g: number; b: number }) =>
    localFile(name, await solidImage(width, 100, color));
  const files = {
    dunes: await file('dunes.png', 300, { r: 210, g: 180, b: 120 }),
    forest: await file('forest.png', 200, { r: 30, g: 120, b: 40 }),
    river: await file('river.png', 150, { r: 40, g: 90, b: 200 }),
  };
  const entries = [
    { title: 'Desert', cover: 'dunes', alt: 'Dunes at dusk', photos: ['dunes', 'river'] },
    { title: 'Woods', cover: 'forest', alt: 'A forest path', photos: ['forest', 'river', 'dunes'] },
  ] as const;

  const uploaded = new Map<string, string>();
  const uploadId = async (name: keyof typeof files) => {
    const known = uploaded.get(name);
    if (known) return known;
    const upload = await client.uploads.createFromLocalFile({
      localPath: files[name],
      skipCreationIfAlreadyExists: true,
    });
    uploaded.set(name, upload.id);
    return upload.id;
  };
  const created = [];
  for (const entry of entries) {
    const cover = await uploadId(entry.cover);
    created.push(
      await client.items.create({
        item_type: { type: 'item_type', id: article.id },
        title: entry.title,
        cover: { upload_id: cover, alt: entry.alt },
        photos: await Promise.all(
          entry.photos.map(async (name) => ({ upload_id: await uploadId(name) })),
        ),
        seo: { title: entry.title, description: null, image: cover, twitter_card: 'summary' },
      }),
    );
  }
  assert.equal(uploaded.size, 3);
  const river = uploaded.get('river') ?? '';
  assert.deepEqual(
    (await client.uploads.references(river)).map((item) => item.id),
    created.map((record) => record.id),
  );
  const woods = await client.items.find(created[1]?.id ?? '');
  assert.equal((woods.photos as unknown[]).length, 3);
  assert.deepEqual(woods.seo, {
    title: 'Woods',
    description: null,
    image: uploaded.get('forest'),
    twitter_card: 'summary',
  });
  // Re-running the import finds every file by its MD5 instead of uploading it again.
  const again = await client.uploads.createFromLocalFile({
    localPath: files.dunes,
    skipCreationIfAlreadyExists: true,
  });
  assert.equal(again.id, uploaded.get('dunes'));
});
