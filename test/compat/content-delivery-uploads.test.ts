import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { executeQuery } from '@datocms/cda-client';
import { deliveryToken } from '../support/delivery-tokens.ts';
import { buildField, itemTypeRef } from '../support/factories.ts';
import { localFile, solidImage } from '../support/images.ts';
import { useTestServer } from '../support/server.ts';

// Uploads through the delivery API: `allUploads` / `upload` / `_allUploadsMeta`, and
// file, gallery and SEO values of records, all made with the official CMA client.

const server = useTestServer();
const client = server.client();

let endpoint: string;
let token: string;
const ids: Record<string, string> = {};

function query<T = Record<string, unknown>>(document: string, variables?: Record<string, unknown>) {
  return executeQuery<T>(document, {
    token,
    graphqlEndpointUrl: endpoint,
    variables,
    autoRetry: false,
  });
}

before(async () => {
  await server.ready();
  endpoint = `${server.baseUrl}/graphql`;
  token = await deliveryToken(server.db, { preview: false });
  await client.site.update({ locales: ['en', 'it'] });
  const wide = await client.uploads.createFromLocalFile({
    localPath: localFile('wide-red.png', await solidImage(400, 200, { r: 200, g: 20, b: 20 })),
    author: 'Ada',
    tags: ['hero', 'red'],
    default_field_metadata: {
      alt: { en: 'A red band', it: null },
      title: { en: 'Red', it: 'Rosso' },
      custom_data: { en: { credit: 'Ada' }, it: {} },
      focal_point: { x: 0.25, y: 0.5 },
    },
  });
  ids.wide = wide.id;
  const tall = await client.uploads.createFromLocalFile({
    localPath: localFile('tall-blue.png', await solidImage(100, 300, { r: 20, g: 20, b: 200 })),
    tags: ['blue'],
  });
  ids.tall = tall.id;
  const notes = await client.uploads.createFromLocalFile({
    localPath: localFile('notes.txt', 'plain words'),
  });
  ids.notes = notes.id;
});

test('allUploads lists the uploads newest first, filtered and ordered as UploadFilter / UploadOrderBy say', async () => {
  const all = await query<{ allUploads: { id: string }[]; _allUploadsMeta: { count: number } }>(
    '{ allUploads { id } _allUploadsMeta { count } }',
  );
  assert.deepEqual(
    all.allUploads.map((upload) => upload.id),
    [ids.notes, ids.tall, ids.wide],
  );
  assert.equal(all._allUploadsMeta.count, 3);
  const images = await query<{ allUploads: { id: string }[]; _allUploadsMeta: { count: number } }>(
    `{ allUploads(filter: {type: {eq: image}}, orderBy: [size_ASC, id_ASC]) { id }
       _allUploadsMeta(filter: {type: {eq: image}}) { count } }`,
  );
  assert.deepEqual(
    new Set(images.allUploads.map((upload) => upload.id)),
    new Set([ids.wide, ids.tall]),
  );
  assert.equal(images._allUploadsMeta.count, 2);
  const filtered = await query<Record<string, { id: string }[]>>(
    `{ tagged: allUploads(filter: {tags: {contains: "hero"}}) { id }
       portrait: allUploads(filter: {orientation: {eq: portrait}}) { id }
       wide: allUploads(filter: {width: {gt: 200}}) { id }
       byAlt: allUploads(filter: {alt: {matches: {pattern: "red band"}}}) { id }
       byName: allUploads(filter: {filename: {matches: {pattern: "tall"}}}) { id }
       either: allUploads(filter: {OR: [{id: {eq: "${ids.tall}"}}, {mimeType: {eq: "text/plain"}}]}, orderBy: id_ASC) { id }
       page: allUploads(first: 1, skip: 1) { id } }`,
  );
  assert.deepEqual(
    filtered.tagged?.map((u) => u.id),
    [ids.wide],
  );
  assert.deepEqual(
    filtered.portrait?.map((u) => u.id),
    [ids.tall],
  );
  assert.deepEqual(
    filtered.wide?.map((u) => u.id),
    [ids.wide],
  );
  assert.deepEqual(
    filtered.byAlt?.map((u) => u.id),
    [ids.wide],
  );
  assert.deepEqual(
    filtered.byName?.map((u) => u.id),
    [ids.tall],
  );
  assert.deepEqual(new Set(filtered.either?.map((u) => u.id)), new Set([ids.tall, ids.notes]));
  assert.deepEqual(
    filtered.page?.map((u) => u.id),
    [ids.tall],
  );
});

test('upload serves the file, its metadata by locale with fallbacks, and imgix-style URLs', async () => {
  const { upload } = await query<{ upload: Record<string, unknown> }>(
    `query ($id: UploadId) {
       upload(filter: {id: {eq: $id}}, locale: it, fallbackLocales: [en]) {
         id filename basename format mimeType size width height author tags
         alt title customData focalPoint { x y }
         enAlt: alt(locale: en) itTitleOnly: title(locale: it, fallbackLocales: [])
         url plain: url(imgixParams: {w: 200, fit: crop, auto: [format, compress], fpX: 0.5})
         focal: url(imgixParams: {crop: [focalpoint], fit: crop, w: 100, h: 100})
         colors { hex } blurhash thumbhash _createdAt video { streamingUrl }
         responsiveImage(imgixParams: {w: 200}) {
           src srcSet webpSrcSet sizes width height aspectRatio alt title base64 bgColor
         }
       } }`,
    { id: ids.wide },
  );
  assert.equal(upload.id, ids.wide);
  assert.equal(upload.filename, 'wide-red.png');
  assert.equal(upload.basename, 'wide-red');
  assert.equal(upload.format, 'png');
  assert.equal(upload.mimeType, 'image/png');
  assert.equal(upload.width, 400);
  assert.equal(upload.height, 200);
  assert.equal(upload.author, 'Ada');
  assert.deepEqual(upload.tags, ['hero', 'red']);
  assert.equal(upload.alt, 'A red band', 'the Italian alt is empty: the English one falls back');
  assert.equal(upload.title, 'Rosso');
  assert.equal(upload.enAlt, 'A red band');
  assert.equal(upload.itTitleOnly, 'Rosso');
  assert.deepEqual(upload.customData, { credit: 'Ada' });
  assert.deepEqual(upload.focalPoint, { x: 0.25, y: 0.5 });
  const url = String(upload.url);
  assert.match(url, /^http:\/\/.+\/assets\/\d+\/\d+-wide-red\.png$/);
  assert.equal(upload.plain, `${url}?auto=format%2Ccompress&fit=crop&fp-x=0.5&w=200`);
  assert.equal(upload.focal, `${url}?crop=focalpoint&fit=crop&fp-x=0.25&fp-y=0.5&h=100&w=100`);
  assert.equal(upload.video, null);
  assert.ok(typeof upload.blurhash === 'string' && typeof upload.thumbhash === 'string');
  const image = upload.responsiveImage as Record<string, unknown>;
  assert.equal(image.width, 200);
  assert.equal(image.height, 100);
  assert.equal(image.aspectRatio, 2);
  assert.equal(image.src, `${url}?w=200`);
  assert.equal(image.sizes, '(max-width: 200px) 100vw, 200px');
  assert.equal(
    image.srcSet,
    [0.25, 0.5, 0.75, 1, 1.5, 2].map((dpr) => `${url}?dpr=${dpr}&w=200 ${200 * dpr}w`).join(','),
    'densities wider than the 400 px source are dropped',
  );
  assert.match(String(image.webpSrcSet), /\?dpr=1&fm=webp&w=200 200w/);
  assert.equal(image.alt, 'A red band');
  assert.equal(image.title, 'Rosso');
  assert.match(String(image.base64), /^data:image\/png;base64,/);
  assert.match(String(image.bgColor), /^#[0-9a-f]{6}$/);
  const { notes } = await query<{ notes: Record<string, unknown> }>(
    `{ notes: upload(filter: {id: {eq: "${ids.notes}"}}) { responsiveImage { src } width format } }`,
  );
  assert.deepEqual(notes, { responsiveImage: null, width: null, format: notes.format });
});

test('file, gallery and SEO values of records resolve to FileFields, their metadata over the defaults', async () => {
  const model = await client.itemTypes.create(
    { name: 'Article', api_key: 'article' },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: model.id, api_key: 'cover', field_type: 'file' });
  await buildField(client, { itemTypeId: model.id, api_key: 'photos', field_type: 'gallery' });
  await buildField(client, { itemTypeId: model.id, api_key: 'seo', field_type: 'seo' });
  const article = await client.items.create({
    item_type: itemTypeRef(model.id),
    cover: { upload_id: ids.wide, alt: 'Own alt', title: null, focal_point: null, custom_data: {} },
    photos: [
      { upload_id: ids.tall, alt: null, title: null, focal_point: null, custom_data: {} },
      {
        upload_id: ids.wide,
        alt: null,
        title: 'Second',
        focal_point: { x: 0.1, y: 0.9 },
        custom_data: {},
      },
    ],
    seo: {
      title: 'Seo title',
      description: 'Seo text',
      image: ids.tall,
      twitter_card: 'summary',
      no_index: false,
    },
  });
  await client.items.publish(article.id);
  const { article: read } = await query<{ article: Record<string, unknown> }>(
    `{ article {
         cover { id alt title focalPoint { x y } }
         photos { id alt title focalPoint { x y } }
         seo { title description twitterCard noIndex image { id width } }
       } }`,
  );
  assert.deepEqual(read.cover, { id: ids.wide, alt: 'Own alt', title: null, focalPoint: null });
  assert.deepEqual(read.photos, [
    { id: ids.tall, alt: null, title: null, focalPoint: null },
    { id: ids.wide, alt: null, title: 'Second', focalPoint: { x: 0.1, y: 0.9 } },
  ]);
  assert.deepEqual(read.seo, {
    title: 'Seo title',
    description: 'Seo text',
    twitterCard: 'summary',
    noIndex: false,
    image: { id: ids.tall, width: 100 },
  });
  const filtered = await query<{ allArticles: { id: string }[] }>(
    `{ allArticles(filter: {cover: {eq: "${ids.wide}"}}) { id } }`,
  );
  assert.deepEqual(
    filtered.allArticles.map((a) => a.id),
    [article.id],
  );
});
