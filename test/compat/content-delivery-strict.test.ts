import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { executeQuery, rawExecuteQuery } from '@datocms/cda-client';
import {
  buildClientSchema,
  type GraphQLField,
  type GraphQLSchema,
  getIntrospectionQuery,
  isObjectType,
} from 'graphql';
import { deliveryToken } from '../support/delivery-tokens.ts';
import { buildField, itemTypeRef } from '../support/factories.ts';
import { localFile, solidImage } from '../support/images.ts';
import { useTestServer } from '../support/server.ts';

// Strict mode (`X-Exclude-Invalid: true`) through @datocms/cda-client: invalid records are
// left out, and the schema's types promise what valid records hold (DatoCMS's strict
// schemas: required fields non-null, `ImageFileField`, `VideoFileField` and their alt/title
// variants, publication times of models without draft mode).

const server = useTestServer();
const client = server.client();

let endpoint: string;
let token: string;
let previewToken: string;
const ids: Record<string, string> = {};

function query<T>(document: string, excludeInvalid: boolean, includeDrafts = false) {
  return executeQuery<T>(document, {
    token: includeDrafts ? previewToken : token,
    graphqlEndpointUrl: endpoint,
    excludeInvalid,
    includeDrafts,
    autoRetry: false,
  });
}

async function introspected(excludeInvalid: boolean): Promise<GraphQLSchema> {
  const [data] = await rawExecuteQuery<never>(getIntrospectionQuery(), {
    token,
    graphqlEndpointUrl: endpoint,
    excludeInvalid,
    autoRetry: false,
  });
  return buildClientSchema(data);
}

/** A field's type as SDL spells it (`String!`, `[ImageFileField!]!`). */
function typeOf(schema: GraphQLSchema, typeName: string, fieldName: string): string {
  const type = schema.getType(typeName);
  assert.ok(isObjectType(type), `${typeName} is an object type`);
  const field: GraphQLField<unknown, unknown> | undefined = type.getFields()[fieldName];
  assert.ok(field, `${typeName}.${fieldName} exists`);
  return String(field.type);
}

before(async () => {
  await server.ready();
  endpoint = `${server.baseUrl}/graphql`;
  token = await deliveryToken(server.db, { preview: false });
  previewToken = await deliveryToken(server.db, { preview: true });
  await client.site.update({ locales: ['en', 'it'] });
  const image = await client.uploads.createFromLocalFile({
    localPath: localFile('strict-red.png', await solidImage(300, 100, { r: 200, g: 20, b: 20 })),
    default_field_metadata: {
      alt: { en: 'A red band', it: 'Una banda rossa' },
      title: { en: null, it: null },
      custom_data: {},
      focal_point: null,
    },
  });
  const author = await client.itemTypes.create(
    { name: 'Author', api_key: 'author' },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: author.id, api_key: 'name', field_type: 'string' });
  const article = await client.itemTypes.create(
    { name: 'Article', api_key: 'article' },
    { skip_menu_item_creation: true },
  );
  await buildField(client, {
    itemTypeId: article.id,
    api_key: 'title',
    field_type: 'string',
    localized: true,
    validators: { required: {} },
  });
  await buildField(client, { itemTypeId: article.id, api_key: 'summary', field_type: 'text' });
  await buildField(client, {
    itemTypeId: article.id,
    api_key: 'writer',
    field_type: 'link',
    validators: { required: {}, item_item_type: { item_types: [author.id] } },
  });
  await buildField(client, {
    itemTypeId: article.id,
    api_key: 'cover',
    field_type: 'file',
    validators: {
      required: {},
      extension: { predefined_list: 'transformable_image' },
      required_alt_title: { alt: true, title: false },
    },
  });
  await buildField(client, {
    itemTypeId: article.id,
    api_key: 'photos',
    field_type: 'gallery',
    validators: { extension: { predefined_list: 'transformable_image' } },
  });
  await buildField(client, {
    itemTypeId: article.id,
    api_key: 'attachment',
    field_type: 'file',
    validators: { required_alt_title: { alt: false, title: true } },
  });
  const rating = await buildField(client, {
    itemTypeId: article.id,
    api_key: 'rating',
    field_type: 'integer',
  });
  const ada = await client.items.create({ item_type: itemTypeRef(author.id), name: 'Ada' });
  await client.items.publish(ada.id);
  const values = (title: string, extra: Record<string, unknown>) => ({
    item_type: itemTypeRef(article.id),
    title: { en: title, it: `${title} (it)` },
    writer: ada.id,
    cover: { upload_id: image.id },
    photos: [{ upload_id: image.id }],
    ...extra,
  });
  const rated = await client.items.create(values('Rated', { rating: 5 }));
  const unrated = await client.items.create(values('Unrated', {}));
  ids.rated = rated.id;
  ids.unrated = unrated.id;
  for (const id of [rated.id, unrated.id]) await client.items.publish(id);
  // A validator added after publication makes the unrated article's published version invalid.
  await client.fields.update(rating.id, { validators: { required: {} } });
  await publicationModels();
  await clipModel(image.id);
});

/**
 * A clip: a video file whose title is required, and an SEO field requiring all its parts
 * (`required_seo_fields`), with a valid record.
 */
async function clipModel(imageId: string) {
  const video = await client.uploads.createFromLocalFile({
    localPath: localFile('strict-clip.mp4', Buffer.from('not really a video')),
    default_field_metadata: {
      alt: { en: null, it: null },
      title: { en: 'A clip', it: 'Una clip' },
      custom_data: {},
      focal_point: null,
    },
  });
  const clip = await client.itemTypes.create(
    { name: 'Clip', api_key: 'clip' },
    { skip_menu_item_creation: true },
  );
  await buildField(client, {
    itemTypeId: clip.id,
    api_key: 'footage',
    field_type: 'file',
    validators: {
      extension: { predefined_list: 'video' },
      required_alt_title: { alt: false, title: true },
    },
  });
  await buildField(client, {
    itemTypeId: clip.id,
    api_key: 'reel',
    field_type: 'gallery',
    validators: { extension: { predefined_list: 'video' } },
  });
  await buildField(client, {
    itemTypeId: clip.id,
    api_key: 'seo',
    field_type: 'seo',
    validators: {
      required_seo_fields: { title: true, description: true, image: true, twitter_card: true },
    },
  });
  const record = await client.items.create({
    item_type: itemTypeRef(clip.id),
    footage: { upload_id: video.id },
    reel: [{ upload_id: video.id }],
    seo: { title: 'Clip', description: 'A clip', image: imageId, twitter_card: 'summary' },
  });
  ids.clip = record.id;
}

/**
 * A model with draft mode whose records hold blocks, and records of models without draft
 * mode that have no publication times all the same: an author withdrawn through the CMA,
 * and a note saved while its model still had draft mode.
 */
async function publicationModels() {
  const aside = await client.itemTypes.create({
    name: 'Aside',
    api_key: 'aside',
    modular_block: true,
  });
  await buildField(client, { itemTypeId: aside.id, api_key: 'text', field_type: 'string' });
  const memo = await client.itemTypes.create(
    { name: 'Memo', api_key: 'memo', draft_mode_active: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, {
    itemTypeId: memo.id,
    api_key: 'asides',
    field_type: 'rich_text',
    validators: { rich_text_blocks: { item_types: [aside.id] } },
  });
  const author = await client.itemTypes.find('author');
  const withdrawn = await client.items.create({ item_type: itemTypeRef(author.id), name: 'Bo' });
  await client.items.unpublish(withdrawn.id);
  ids.withdrawn = withdrawn.id;
  const note = await client.itemTypes.create(
    { name: 'Note', api_key: 'note', draft_mode_active: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: note.id, api_key: 'text', field_type: 'string' });
  const draft = await client.items.create({ item_type: itemTypeRef(note.id), text: 'draft' });
  await client.itemTypes.update(note.id, { draft_mode_active: false });
  ids.draftNote = draft.id;
}

test('strict mode leaves invalid records out of collections, counts and single reads', async () => {
  const document = `{
    allArticles(orderBy: id_ASC) { id _isValid }
    _allArticlesMeta { count }
    article(filter: { id: { eq: "${ids.unrated}" } }) { id }
  }`;
  type Result = {
    allArticles: { id: string; _isValid: boolean }[];
    _allArticlesMeta: { count: number };
    article: { id: string } | null;
  };
  const lax = await query<Result>(document, false);
  assert.deepEqual(
    new Set(lax.allArticles.map((record) => `${record.id}:${record._isValid}`)),
    new Set([`${ids.rated}:true`, `${ids.unrated}:false`]),
  );
  assert.equal(lax._allArticlesMeta.count, 2);
  assert.deepEqual(lax.article, { id: ids.unrated });
  const strict = await query<Result>(document, true);
  assert.deepEqual(strict.allArticles, [{ id: ids.rated, _isValid: true }]);
  assert.equal(strict._allArticlesMeta.count, 1);
  assert.equal(strict.article, null);
});

test('strict mode types required fields non-null, as DatoCMS strict schemas do', async () => {
  const strict = await introspected(true);
  assert.equal(typeOf(strict, 'ArticleRecord', 'title'), 'String!');
  assert.equal(typeOf(strict, 'ArticleRecord', 'rating'), 'IntType!');
  assert.equal(typeOf(strict, 'ArticleRecord', 'writer'), 'AuthorRecord!');
  assert.equal(typeOf(strict, 'ArticleRecord', 'summary'), 'String');
  assert.equal(
    typeOf(strict, 'ArticleRecord', '_allTitleLocales'),
    '[StringNonNullMultiLocaleField!]',
  );
  assert.equal(typeOf(strict, 'StringNonNullMultiLocaleField', 'value'), 'String!');
  const lax = await introspected(false);
  assert.equal(typeOf(lax, 'ArticleRecord', 'title'), 'String');
  assert.equal(typeOf(lax, 'ArticleRecord', 'rating'), 'IntType');
  assert.equal(typeOf(lax, 'ArticleRecord', 'writer'), 'AuthorRecord');
  assert.equal(typeOf(lax, 'ArticleRecord', '_allTitleLocales'), '[StringMultiLocaleField!]');
});

test('strict mode types image and alt/title-required file fields by what they guarantee', async () => {
  const strict = await introspected(true);
  assert.equal(typeOf(strict, 'ArticleRecord', 'cover'), 'ImageAltFileField!');
  assert.equal(typeOf(strict, 'ArticleRecord', 'photos'), '[ImageFileField!]!');
  assert.equal(typeOf(strict, 'ArticleRecord', 'attachment'), 'TitleFileField');
  for (const name of ['width', 'height']) {
    assert.equal(typeOf(strict, 'ImageFileField', name), 'IntType!');
  }
  assert.equal(typeOf(strict, 'ImageFileField', 'responsiveImage'), 'ResponsiveImage!');
  assert.equal(typeOf(strict, 'ImageFileField', 'focalPoint'), 'focalPoint!');
  assert.equal(typeOf(strict, 'ImageFileField', 'alt'), 'String');
  assert.equal(typeOf(strict, 'ImageAltFileField', 'alt'), 'String!');
  assert.equal(typeOf(strict, 'ImageAltFileField', 'title'), 'String');
  assert.equal(typeOf(strict, 'TitleFileField', 'title'), 'String!');
  assert.equal(typeOf(strict, 'TitleFileField', 'width'), 'IntType');
  const lax = await introspected(false);
  assert.equal(typeOf(lax, 'ArticleRecord', 'cover'), 'FileField');
  assert.equal(lax.getType('ImageFileField'), undefined);
});

test('a strict read serves the narrowed values: sizes, alt, a centred focal point', async () => {
  const data = await query<{
    allArticles: {
      title: string;
      writer: { name: string };
      cover: {
        __typename: string;
        width: number;
        height: number;
        alt: string;
        focalPoint: { x: number; y: number };
        responsiveImage: { width: number; height: number; alt: string };
      };
      photos: { __typename: string; width: number }[];
    }[];
  }>(
    `{ allArticles(locale: it) {
        title writer { name }
        cover { __typename width height alt focalPoint { x y } responsiveImage { width height alt } }
        photos { __typename width }
    } }`,
    true,
  );
  assert.deepEqual(data.allArticles, [
    {
      title: 'Rated (it)',
      writer: { name: 'Ada' },
      cover: {
        __typename: 'ImageAltFileField',
        width: 300,
        height: 100,
        alt: 'Una banda rossa',
        focalPoint: { x: 0.5, y: 0.5 },
        responsiveImage: { width: 300, height: 100, alt: 'Una banda rossa' },
      },
      photos: [{ __typename: 'ImageFileField', width: 300 }],
    },
  ]);
});

test('strict mode promises publication times of models without draft mode only', async () => {
  const strict = await introspected(true);
  for (const type of ['ArticleRecord', 'AuthorRecord', 'NoteRecord']) {
    assert.equal(typeOf(strict, type, '_publishedAt'), 'DateTime!', type);
    assert.equal(typeOf(strict, type, '_firstPublishedAt'), 'DateTime!', type);
  }
  // A model with draft mode, and blocks (whose models never have it), stay nullable.
  for (const type of ['MemoRecord', 'AsideRecord']) {
    assert.equal(typeOf(strict, type, '_publishedAt'), 'DateTime', type);
    assert.equal(typeOf(strict, type, '_firstPublishedAt'), 'DateTime', type);
  }
  const lax = await introspected(false);
  assert.equal(typeOf(lax, 'ArticleRecord', '_publishedAt'), 'DateTime');
  assert.equal(typeOf(lax, 'ArticleRecord', '_firstPublishedAt'), 'DateTime');
});

test('a draft of a model without draft mode reads as published when saved, in strict mode', async () => {
  type Meta = {
    id: string;
    _status: string;
    _createdAt: string;
    _updatedAt: string;
    _publishedAt: string | null;
    _firstPublishedAt: string | null;
  };
  const document = `query Drafts($author: ItemId, $note: ItemId) {
    author(filter: { id: { eq: $author } }) { ...meta }
    note(filter: { id: { eq: $note } }) { ...meta }
  }
  fragment meta on RecordInterface {
    id _status _createdAt _updatedAt _publishedAt _firstPublishedAt
  }`;
  const variables = { author: ids.withdrawn, note: ids.draftNote };
  const read = (strict: boolean) =>
    executeQuery<{ author: Meta; note: Meta }>(document, {
      token: previewToken,
      graphqlEndpointUrl: endpoint,
      excludeInvalid: strict,
      includeDrafts: true,
      variables,
      autoRetry: false,
    });
  const lax = await read(false);
  assert.equal(lax.author._status, 'draft');
  assert.equal(lax.author._publishedAt, null);
  assert.ok(lax.author._firstPublishedAt, 'the author was published once');
  assert.equal(lax.note._publishedAt, null);
  assert.equal(lax.note._firstPublishedAt, null);
  const strict = await read(true);
  assert.deepEqual(strict.author, {
    ...lax.author,
    _publishedAt: lax.author._updatedAt,
  });
  assert.deepEqual(strict.note, {
    ...lax.note,
    _publishedAt: lax.note._updatedAt,
    _firstPublishedAt: lax.note._createdAt,
  });
  // Without drafts neither is served: only published versions are.
  const published = await query<{ author: Meta | null; note: Meta | null }>(
    `{ author(filter: { id: { eq: "${ids.withdrawn}" } }) { id }
       note(filter: { id: { eq: "${ids.draftNote}" } }) { id } }`,
    true,
  );
  assert.deepEqual(published, { author: null, note: null });
});

test('strict mode types video file fields VideoFileField, their video and sizes nullable', async () => {
  const strict = await introspected(true);
  assert.equal(typeOf(strict, 'ClipRecord', 'footage'), 'VideoTitleFileField');
  assert.equal(typeOf(strict, 'ClipRecord', 'reel'), '[VideoFileField!]!');
  // DatoCMS promises these (Mux, probed sizes); no video is probed or streamed here.
  assert.equal(typeOf(strict, 'VideoFileField', 'video'), 'UploadVideoField');
  assert.equal(typeOf(strict, 'VideoFileField', 'width'), 'IntType');
  assert.equal(typeOf(strict, 'VideoFileField', 'height'), 'IntType');
  assert.equal(typeOf(strict, 'VideoTitleFileField', 'title'), 'String!');
  const lax = await introspected(false);
  assert.equal(typeOf(lax, 'ClipRecord', 'footage'), 'FileField');
  assert.equal(lax.getType('VideoFileField'), undefined);
  const data = await query<{ clip: Record<string, unknown> }>(
    `{ clip(filter: { id: { eq: "${ids.clip}" } }) {
      footage { __typename title video { muxPlaybackId } }
      reel { __typename ... on VideoFileField { mimeType } }
    } }`,
    true,
  );
  assert.deepEqual(data.clip, {
    footage: { __typename: 'VideoTitleFileField', title: 'A clip', video: null },
    reel: [{ __typename: 'VideoFileField', mimeType: 'video/mp4' }],
  });
});

test('strict mode does not narrow SeoField for required_seo_fields, as DatoCMS does not', async () => {
  // DatoCMS's strict schemas and the code generated from them type every SEO value as the
  // one `SeoField`, whose parts are nullable, whatever the field's validators.
  const strict = await introspected(true);
  assert.equal(typeOf(strict, 'ClipRecord', 'seo'), 'SeoField');
  for (const name of ['title', 'description', 'twitterCard']) {
    assert.equal(typeOf(strict, 'SeoField', name), 'String');
  }
  assert.equal(typeOf(strict, 'SeoField', 'image'), 'FileField');
  const data = await query<{ clip: Record<string, unknown> }>(
    `{ clip(filter: { id: { eq: "${ids.clip}" } }) {
      seo { __typename title description twitterCard image { __typename width } }
    } }`,
    true,
  );
  assert.deepEqual(data.clip, {
    seo: {
      __typename: 'SeoField',
      title: 'Clip',
      description: 'A clip',
      twitterCard: 'summary',
      image: { __typename: 'FileField', width: 300 },
    },
  });
});
