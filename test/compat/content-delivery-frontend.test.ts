import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { executeQuery, rawExecuteQuery } from '@datocms/cda-client';
import { buildClientSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { LOOPBACK } from '../support/delivery-fixtures.ts';
import { deliveryToken } from '../support/delivery-tokens.ts';
import { blockInRequest, buildField, buildWebhook, itemTypeRef } from '../support/factories.ts';
import { localFile, solidImage } from '../support/images.ts';
import { useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

// A blog as a DatoCMS front-end reads it: the queries a Next.js / Astro starter sends,
// validated against the introspected schema and run through @datocms/cda-client, on
// content made with the CMA client. Also SEO tags, inverse relationships, all-locales
// fields, editing URLs and cache tags with their invalidation webhooks.

const server = useTestServer({ webhookAllow: LOOPBACK });
const client = server.client();
const receiver = useReceiver();

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

// biome-ignore lint/suspicious/noExplicitAny: results are read as the assertions below read them
type Data = Record<string, any>;

const BLOG_INDEX = `
  query BlogIndex($first: IntType = 10) {
    _site { favicon { url } faviconMetaTags { tag attributes content }
            globalSeo { siteName titleSuffix fallbackSeo { title description } } }
    allBlogPosts(first: $first, orderBy: publishedOn_DESC) {
      id title slug publishedOn _firstPublishedAt
      coverImage { responsiveImage(imgixParams: {fit: crop, w: 600, h: 400, auto: format}) {
        src srcSet width height alt base64 } }
      author { name picture { url(imgixParams: {w: 64}) } }
      tags { name }
    }
    _allBlogPostsMeta { count }
  }`;

const POST_PAGE = `
  query PostPage($slug: String) {
    blogPost(filter: {slug: {eq: $slug}}) {
      title _seoMetaTags { tag attributes content }
      author { name _allReferencingBlogPosts(first: 5) { slug } _allReferencingBlogPostsMeta { count } }
      content {
        value
        blocks { __typename ... on ImageBlockRecord { id caption image { url } } }
        links { __typename ... on BlogPostRecord { id slug } }
      }
    }
  }`;

const LOCALIZED_PAGE = `
  query LocalizedPage($locale: SiteLocale) {
    blogPost(locale: $locale, fallbackLocales: [en], filter: {slug: {eq: "hello"}}) {
      title _locales _allTitleLocales { locale value }
    }
  }`;

before(async () => {
  await server.ready();
  endpoint = `${server.baseUrl}/graphql`;
  token = await deliveryToken(server.db, { preview: true });
  const favicon = await client.uploads.createFromLocalFile({
    localPath: localFile('favicon.png', await solidImage(64, 64, { r: 0, g: 0, b: 0 })),
  });
  await client.site.update({
    locales: ['en', 'it'],
    favicon: favicon.id,
    global_seo: {
      site_name: 'The Blog',
      title_suffix: ' | The Blog',
      twitter_account: '@blog',
      facebook_page_url: 'https://facebook.com/blog',
      fallback_seo: {
        title: 'Fallback',
        description: 'About the blog',
        image: null,
        twitter_card: null,
      },
    },
  } as never);
  const author = await client.itemTypes.create(
    { name: 'Author', api_key: 'author', inverse_relationships_enabled: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: author.id, api_key: 'name', field_type: 'string' });
  await buildField(client, { itemTypeId: author.id, api_key: 'picture', field_type: 'file' });
  const tag = await client.itemTypes.create(
    { name: 'Tag', api_key: 'tag' },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: tag.id, api_key: 'name', field_type: 'string' });
  const imageBlock = await client.itemTypes.create({
    name: 'Image block',
    api_key: 'image_block',
    modular_block: true,
  });
  await buildField(client, { itemTypeId: imageBlock.id, api_key: 'caption', field_type: 'string' });
  await buildField(client, { itemTypeId: imageBlock.id, api_key: 'image', field_type: 'file' });
  const post = await client.itemTypes.create(
    { name: 'Blog post', api_key: 'blog_post' },
    { skip_menu_item_creation: true },
  );
  ids.postModel = post.id;
  const title = await buildField(client, {
    itemTypeId: post.id,
    api_key: 'title',
    field_type: 'string',
    localized: true,
  });
  await client.itemTypes.update(post.id, { title_field: { type: 'field', id: title.id } } as never);
  await buildField(client, { itemTypeId: post.id, api_key: 'slug', field_type: 'string' });
  await buildField(client, { itemTypeId: post.id, api_key: 'published_on', field_type: 'date' });
  await buildField(client, { itemTypeId: post.id, api_key: 'cover_image', field_type: 'file' });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'author',
    field_type: 'link',
    validators: { item_item_type: { item_types: [author.id] } },
  });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'tags',
    field_type: 'links',
    validators: { items_item_type: { item_types: [tag.id] } },
  });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'content',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [imageBlock.id] },
      structured_text_links: { item_types: [post.id] },
    },
  });
  await buildField(client, { itemTypeId: post.id, api_key: 'seo', field_type: 'seo' });
  const ada = await client.items.create({ item_type: itemTypeRef(author.id), name: 'Ada' });
  ids.ada = ada.id;
  const news = await client.items.create({ item_type: itemTypeRef(tag.id), name: 'News' });
  const first = await client.items.create({
    item_type: itemTypeRef(post.id),
    title: { en: 'Hello', it: null },
    slug: 'hello',
    published_on: '2026-01-02',
    author: ada.id,
    tags: [news.id],
    seo: {
      title: 'Hello, world',
      description: 'The first post',
      image: null,
      twitter_card: 'summary',
      no_index: false,
    },
  });
  ids.hello = first.id;
  const second = await client.items.create({
    item_type: itemTypeRef(post.id),
    title: { en: 'Second', it: 'Secondo' },
    slug: 'second',
    published_on: '2026-02-03',
    author: ada.id,
    tags: [news.id],
    content: {
      schema: 'dast',
      document: {
        type: 'root',
        children: [
          {
            type: 'paragraph',
            children: [
              {
                type: 'itemLink',
                item: first.id,
                children: [{ type: 'span', value: 'the first' }],
              },
            ],
          },
          {
            type: 'block',
            item: blockInRequest({
              itemTypeId: imageBlock.id,
              attributes: { caption: 'A picture', image: null },
            }),
          },
        ],
      },
    },
  });
  ids.second = second.id;
  for (const id of [ada.id, news.id, first.id, second.id]) await client.items.publish(id);
});

async function introspectedSchema() {
  const [data] = await rawExecuteQuery<never>(getIntrospectionQuery(), {
    token,
    graphqlEndpointUrl: endpoint,
    excludeInvalid: true,
    autoRetry: false,
  });
  return buildClientSchema(data);
}

test("the front-end's queries validate against the introspected schema", async () => {
  const schema = await introspectedSchema();
  for (const document of [BLOG_INDEX, POST_PAGE, LOCALIZED_PAGE]) {
    assert.deepEqual(validate(schema, parse(document)), [], document);
  }
  for (const name of [
    'FileField',
    'FileFieldInterface',
    'ResponsiveImage',
    'UploadFilter',
    'UploadOrderBy',
    'ImgixParams',
    'Tag',
    'GlobalSeoField',
    'StringMultiLocaleField',
    'InverseRelationshipFilterBetweenBlogPostAndAuthor',
  ]) {
    assert.ok(schema.getType(name), `${name} is in the schema`);
  }
});

test('the blog index: posts newest first with cover, author and tags; the site and its favicon', async () => {
  const data = await query<Data>(BLOG_INDEX);
  assert.deepEqual(
    data.allBlogPosts.map((post: { slug: string }) => post.slug),
    ['second', 'hello'],
  );
  assert.equal(data._allBlogPostsMeta.count, 2);
  assert.deepEqual(data.allBlogPosts[0].author, { name: 'Ada', picture: null });
  assert.deepEqual(data.allBlogPosts[0].tags, [{ name: 'News' }]);
  assert.equal(data.allBlogPosts[0].coverImage, null);
  assert.match(data._site.favicon.url, /favicon\.png$/);
  assert.deepEqual(
    data._site.faviconMetaTags.map(
      (tag: { attributes: { sizes: string } }) => tag.attributes.sizes,
    ),
    ['16x16', '32x32', '96x96', '192x192'],
  );
  assert.match(data._site.faviconMetaTags[0].attributes.href, /favicon\.png\?h=16&w=16$/);
  assert.deepEqual(data._site.globalSeo, {
    siteName: 'The Blog',
    titleSuffix: ' | The Blog',
    fallbackSeo: { title: 'Fallback', description: 'About the blog' },
  });
});

test('the post page: SEO tags, structured text with its blocks and links, inverse relationships', async () => {
  const { blogPost: hello } = await query<Data>(POST_PAGE, { slug: 'hello' });
  const tags = hello._seoMetaTags as {
    tag: string;
    attributes: Record<string, string> | null;
    content: string | null;
  }[];
  assert.deepEqual(tags[0], { tag: 'title', attributes: null, content: 'Hello, world | The Blog' });
  const byKey = new Map(
    tags
      .filter((tag) => tag.attributes)
      .map((tag) => [tag.attributes?.property ?? tag.attributes?.name, tag.attributes?.content]),
  );
  assert.equal(byKey.get('og:title'), 'Hello, world');
  assert.equal(byKey.get('description'), 'The first post');
  assert.equal(byKey.get('twitter:card'), 'summary');
  assert.equal(byKey.get('og:site_name'), 'The Blog');
  assert.equal(byKey.get('twitter:site'), '@blog');
  assert.equal(byKey.get('og:locale'), 'en');
  assert.equal(byKey.get('article:publisher'), 'https://facebook.com/blog');
  assert.deepEqual(
    new Set(hello.author._allReferencingBlogPosts.map((post: { slug: string }) => post.slug)),
    new Set(['hello', 'second']),
  );
  assert.equal(hello.author._allReferencingBlogPostsMeta.count, 2);
  const { blogPost: second } = await query<Data>(POST_PAGE, { slug: 'second' });
  assert.equal(
    second._seoMetaTags[0].content,
    'Second | The Blog',
    'without an SEO value the title field names the page',
  );
  assert.deepEqual(second.content.links, [
    { __typename: 'BlogPostRecord', id: ids.hello, slug: 'hello' },
  ]);
  assert.equal(second.content.blocks.length, 1);
  assert.equal(second.content.blocks[0].caption, 'A picture');
  assert.equal(second.content.value.document.children[1].item, second.content.blocks[0].id);
});

test('a localized page falls back to English and lists its values in every locale', async () => {
  const it = await query<Data>(LOCALIZED_PAGE, { locale: 'it' });
  assert.equal(it.blogPost.title, 'Hello', 'no Italian title: the English one');
  assert.deepEqual(it.blogPost._locales, ['en', 'it'], 'the record holds both locales');
  assert.deepEqual(it.blogPost._allTitleLocales, [{ locale: 'en', value: 'Hello' }]);
  const { allBlogPosts } = await query<Data>(
    '{ allBlogPosts(filter: {slug: {eq: "second"}}) { _allTitleLocales { locale value } } }',
  );
  assert.deepEqual(allBlogPosts[0]._allTitleLocales, [
    { locale: 'en', value: 'Second' },
    { locale: 'it', value: 'Secondo' },
  ]);
});

test('_editingUrl points at the record editor when X-Base-Editing-Url is sent, and is null otherwise', async () => {
  const document = `{ blogPost(filter: {slug: {eq: "hello"}}) { _editingUrl _modelApiKey } }`;
  const plain = await query<Data>(document);
  assert.deepEqual(plain.blogPost, { _editingUrl: null, _modelApiKey: 'blog_post' });
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'X-Base-Editing-Url': 'https://admin.example.com/',
    },
    body: JSON.stringify({ query: document }),
  });
  const edited = ((await response.json()) as { data: Data }).data;
  assert.equal(
    edited.blogPost._editingUrl,
    `https://admin.example.com/editor/item_types/${ids.postModel}/items/${ids.hello}/edit`,
  );
});

test('_allReferencingBlogPosts takes first, orderBy and through (the link fields that count)', async () => {
  const { allAuthors } = await query<Data>(
    `{ allAuthors { _allReferencingBlogPosts(first: 1, orderBy: publishedOn_ASC, through: {fields: {anyIn: [blogPost_author]}}) { slug } } }`,
  );
  assert.deepEqual(allAuthors, [{ _allReferencingBlogPosts: [{ slug: 'hello' }] }]);
});

test('X-Cache-Tags names what a response read; a change sends the tags it invalidates to cda_cache_tags webhooks', async () => {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'X-Cache-Tags': 'true' },
    body: JSON.stringify({
      query: '{ blogPost(filter: {slug: {eq: "hello"}}) { title author { name } } }',
    }),
  });
  assert.equal(response.status, 200);
  const header = response.headers.get('x-cache-tags') ?? '';
  const tags = header.split(' ');
  assert.equal(tags.length, 4, 'the site, the collection, the post and its author');
  for (const tag of tags) assert.match(tag, /^[a-z2-7]{8}$/);
  const without = await fetch(endpoint, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ _site { locales } }' }),
  });
  assert.equal(without.headers.get('x-cache-tags'), null);

  receiver.requests.length = 0;
  await buildWebhook(client, {
    name: 'CDN purge',
    url: `${receiver.url}/purge`,
    events: [{ entity_type: 'cda_cache_tags', event_types: ['invalidate'] }],
    payload_api_version: '3',
    nested_items_in_payload: false,
    auto_retry: false,
  });
  await client.items.update(ids.ada as string, { name: 'Ada L.' });
  const [purge] = await receiver.waitForRequests(1);
  const body = JSON.parse(purge?.body ?? '{}');
  assert.equal(body.entity_type, 'cda_cache_tags');
  assert.equal(body.event_type, 'invalidate');
  assert.equal(body.entity.type, 'cda_cache_tags');
  const purged: string[] = body.entity.attributes.tags;
  assert.ok(
    purged.some((tag) => tags.includes(tag)),
    'the author change purges the page that read the author',
  );
});
