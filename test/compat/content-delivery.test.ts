import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ApiError, executeQuery, rawExecuteQuery } from '@datocms/cda-client';
import { getIntrospectionQuery } from 'graphql';
import { deliveryToken } from '../support/delivery-tokens.ts';
import { blockInRequest, buildField, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

let endpoint: string;
let readToken: string;
let previewToken: string;
const ids: Record<string, string> = {};

function query<T = Record<string, unknown>>(
  document: string,
  options: { token?: string; includeDrafts?: boolean; variables?: Record<string, unknown> } = {},
): Promise<T> {
  return executeQuery<T>(document, {
    token: options.token ?? readToken,
    graphqlEndpointUrl: endpoint,
    includeDrafts: options.includeDrafts,
    variables: options.variables,
    autoRetry: false,
  });
}

async function apiErrorOf(run: Promise<unknown>): Promise<ApiError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('the query succeeded');
}

before(async () => {
  await server.ready();
  endpoint = `${server.baseUrl}/graphql`;
  readToken = await deliveryToken(server.db, { cda: true, preview: false });
  previewToken = await deliveryToken(server.db, { cda: true, preview: true });
  await client.site.update({ locales: ['en', 'it'] });
  const author = await client.itemTypes.create(
    { name: 'Author', api_key: 'author', draft_mode_active: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: author.id, api_key: 'name', field_type: 'string' });
  const post = await client.itemTypes.create(
    { name: 'Blog post', api_key: 'blog_post', draft_mode_active: true },
    { skip_menu_item_creation: true },
  );
  ids.postModel = post.id;
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'title',
    field_type: 'string',
    localized: true,
  });
  await buildField(client, { itemTypeId: post.id, api_key: 'views', field_type: 'integer' });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'author',
    field_type: 'link',
    validators: { item_item_type: { item_types: [author.id] } },
  });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'related',
    field_type: 'links',
    validators: { items_item_type: { item_types: [post.id] } },
  });
  const quote = await client.itemTypes.create({
    name: 'Quote',
    api_key: 'quote',
    modular_block: true,
  });
  await buildField(client, { itemTypeId: quote.id, api_key: 'text', field_type: 'string' });
  const hero = await client.itemTypes.create({
    name: 'Hero',
    api_key: 'hero',
    modular_block: true,
  });
  await buildField(client, { itemTypeId: hero.id, api_key: 'heading', field_type: 'string' });
  await buildField(client, {
    itemTypeId: hero.id,
    api_key: 'quotes',
    field_type: 'rich_text',
    validators: { rich_text_blocks: { item_types: [quote.id] } },
  });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'sections',
    field_type: 'rich_text',
    deep_filtering_enabled: true,
    validators: { rich_text_blocks: { item_types: [hero.id, quote.id] } },
  });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'lead',
    field_type: 'single_block',
    validators: { single_block_blocks: { item_types: [quote.id] } },
  });
  await buildField(client, {
    itemTypeId: post.id,
    api_key: 'body',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [quote.id, hero.id] },
      structured_text_inline_blocks: { item_types: [quote.id] },
      structured_text_links: { item_types: [author.id, post.id] },
    },
  });
  const ada = await client.items.create({ item_type: itemTypeRef(author.id), name: 'Ada' });
  await client.items.publish(ada.id);
  ids.ada = ada.id;
  const posts: [string, { en: string; it: string | null }, number][] = [
    ['one', { en: 'One', it: 'Uno' }, 3],
    ['two', { en: 'Two', it: null }, 7],
    ['three', { en: 'Three', it: 'Tre' }, 12],
  ];
  for (const [key, title, views] of posts) {
    const record = await client.items.create({
      item_type: itemTypeRef(post.id),
      title,
      views,
      author: ada.id,
      related: Object.values(ids).filter((id) => id !== ada.id && id !== post.id),
      sections: [
        blockInRequest({
          itemTypeId: hero.id,
          attributes: {
            heading: `${title.en} hero`,
            quotes: [blockInRequest({ itemTypeId: quote.id, attributes: { text: 'Inner' } })],
          },
        }),
        blockInRequest({ itemTypeId: quote.id, attributes: { text: `${title.en} said` } }),
      ],
      lead: blockInRequest({ itemTypeId: quote.id, attributes: { text: `${title.en} lead` } }),
      body: {
        schema: 'dast',
        document: {
          type: 'root',
          children: [
            {
              type: 'paragraph',
              children: [
                { type: 'span', value: 'By ' },
                { type: 'itemLink', item: ada.id, children: [{ type: 'span', value: 'Ada' }] },
                {
                  type: 'inlineBlock',
                  item: blockInRequest({ itemTypeId: quote.id, attributes: { text: 'Inline' } }),
                },
                { type: 'inlineItem', item: ada.id },
              ],
            },
            {
              type: 'block',
              item: blockInRequest({ itemTypeId: hero.id, attributes: { heading: 'In body' } }),
            },
          ],
        },
      },
    } as never);
    await client.items.publish(record.id);
    ids[key] = record.id;
  }
  const draft = await client.items.create({
    item_type: itemTypeRef(post.id),
    title: { en: 'Draft', it: 'Bozza' },
    views: 100,
  });
  ids.draft = draft.id;
});

test('a collection filters, orders and pages; its meta counts', async () => {
  const data = await query<{
    allBlogPosts: { title: string; views: number }[];
    _allBlogPostsMeta: { count: number };
  }>(`{
    allBlogPosts(filter: { views: { gt: 5 } }, orderBy: [views_DESC], first: 1, skip: 1) { title views }
    _allBlogPostsMeta(filter: { views: { gt: 5 } }) { count }
  }`);
  assert.deepEqual(data.allBlogPosts, [{ title: 'Two', views: 7 }]);
  assert.equal(data._allBlogPostsMeta.count, 2);
  const either = await query<{ allBlogPosts: { title: string }[] }>(`{
    allBlogPosts(filter: { OR: [{ title: { eq: "One" } }, { views: { gte: 12 } }] }, orderBy: [views_ASC]) { title }
  }`);
  assert.deepEqual(
    either.allBlogPosts.map((post) => post.title),
    ['One', 'Three'],
  );
});

test('a single record by id, with its meta fields and a link', async () => {
  const data = await query<{ blogPost: Record<string, unknown> }>(
    `query Post($id: ItemId) {
      blogPost(filter: { id: { eq: $id } }) {
        id title _status _modelApiKey _isValid _publishedAt author { name }
      }
    }`,
    { variables: { id: ids.three } },
  );
  assert.equal(data.blogPost.id, ids.three);
  assert.equal(data.blogPost.title, 'Three');
  assert.equal(data.blogPost._status, 'published');
  assert.equal(data.blogPost._modelApiKey, 'blog_post');
  assert.equal(data.blogPost._isValid, true);
  assert.equal(typeof data.blogPost._publishedAt, 'string');
  assert.deepEqual(data.blogPost.author, { name: 'Ada' });
});

test('links and blocks load in one statement per level, whatever the page size', async () => {
  const statements = async (first: number, drafts: boolean) => {
    const [, response] = await rawExecuteQuery(
      `{ allBlogPosts(first: ${first}, orderBy: [views_ASC]) {
        title author { name } related { title author { name } }
        lead { text } sections { ... on HeroRecord { heading quotes { text } } }
        body { blocks { ... on HeroRecord { heading } } links { ... on AuthorRecord { name } } }
      } }`,
      {
        token: drafts ? previewToken : readToken,
        includeDrafts: drafts,
        graphqlEndpointUrl: endpoint,
        autoRetry: false,
      },
    );
    return Number(response.headers.get('x-fieldhouse-queries'));
  };
  assert.equal(await statements(1, false), await statements(3, false));
  // Current versions name their blocks by id: each block level is one more statement.
  assert.equal(await statements(1, true), await statements(4, true));
});

test('structured text serves its value, blocks, inline blocks and links as DatoCMS names them', async () => {
  type Node = { type: string; item?: string; children?: Node[] };
  type Body = {
    value: { schema: string; document: Node };
    blocks: Record<string, unknown>[];
    inlineBlocks: { id: string; text: string }[];
    links: Record<string, unknown>[];
  };
  const read = async (drafts: boolean) =>
    (
      await query<{ blogPost: { body: Body } }>(
        `query Post($id: ItemId) {
          blogPost(filter: { id: { eq: $id } }) {
            body {
              value
              blocks { __typename ... on HeroRecord { id heading } }
              inlineBlocks { id text }
              links { __typename ... on AuthorRecord { id name } }
            }
          }
        }`,
        {
          variables: { id: ids.two },
          ...(drafts ? { token: previewToken, includeDrafts: true } : {}),
        },
      )
    ).blogPost.body;
  for (const drafts of [false, true]) {
    const body = await read(drafts);
    const [paragraph, block] = body.value.document.children ?? [];
    assert.equal(body.value.schema, 'dast');
    assert.equal(block?.type, 'block');
    assert.deepEqual(body.blocks, [
      { __typename: 'HeroRecord', id: block?.item, heading: 'In body' },
    ]);
    const inline = paragraph?.children?.find((node) => node.type === 'inlineBlock');
    assert.deepEqual(body.inlineBlocks, [{ id: inline?.item, text: 'Inline' }]);
    assert.deepEqual(body.links, [{ __typename: 'AuthorRecord', id: ids.ada, name: 'Ada' }]);
  }
  const schema = await query<{
    body: {
      fields: { name: string; type: { ofType: { ofType: { ofType: { name: string } } } | null } }[];
    } | null;
    blocks: { possibleTypes: { name: string }[] } | null;
    links: { possibleTypes: { name: string }[] } | null;
  }>(`{
    body: __type(name: "BlogPostModelBodyField") { fields { name type { ofType { ofType { ofType { name } } } } } }
    blocks: __type(name: "BlogPostModelBodyBlocksField") { possibleTypes { name } }
    links: __type(name: "BlogPostModelBodyLinksField") { possibleTypes { name } }
  }`);
  assert.deepEqual(
    schema.body?.fields.map((field) => [field.name, field.type.ofType?.ofType?.ofType?.name]),
    [
      ['blocks', 'BlogPostModelBodyBlocksField'],
      ['inlineBlocks', 'QuoteRecord'],
      ['links', 'BlogPostModelBodyLinksField'],
      ['value', undefined],
    ],
  );
  assert.deepEqual(schema.blocks?.possibleTypes.map((type) => type.name).sort(), [
    'HeroRecord',
    'QuoteRecord',
  ]);
  assert.deepEqual(schema.links?.possibleTypes.map((type) => type.name).sort(), [
    'AuthorRecord',
    'BlogPostRecord',
  ]);
});

test('modular content and single blocks resolve to block records, by DatoCMS union', async () => {
  const page = `query Post($id: ItemId) {
    blogPost(filter: { id: { eq: $id } }) {
      sections {
        __typename
        ... on HeroRecord { id heading _modelApiKey quotes { text } }
        ... on QuoteRecord { text }
      }
      lead { text _modelApiKey }
    }
  }`;
  type Page = {
    blogPost: {
      sections: Record<string, unknown>[];
      lead: { text: string; _modelApiKey: string };
    };
  };
  const data = await query<Page>(page, { variables: { id: ids.one } });
  assert.deepEqual(
    data.blogPost.sections.map(({ id, ...rest }) => ({ ...rest, hasId: typeof id === 'string' })),
    [
      {
        __typename: 'HeroRecord',
        heading: 'One hero',
        _modelApiKey: 'hero',
        quotes: [{ text: 'Inner' }],
        hasId: true,
      },
      { __typename: 'QuoteRecord', text: 'One said', hasId: false },
    ],
  );
  assert.deepEqual(data.blogPost.lead, { text: 'One lead', _modelApiKey: 'quote' });

  // A block edited since publication: the published version keeps the old block.
  const hero = data.blogPost.sections[0]?.id as string;
  await client.items.update(ids.one as string, {
    sections: [blockInRequest({ id: hero, attributes: { heading: 'Edited hero' } })],
  });
  const published = await query<Page>(page, { variables: { id: ids.one } });
  assert.equal(published.blogPost.sections[0]?.heading, 'One hero');
  const current = await query<Page>(page, {
    token: previewToken,
    includeDrafts: true,
    variables: { id: ids.one },
  });
  assert.deepEqual(
    current.blogPost.sections.map((section) => section.heading),
    ['Edited hero'],
  );
  assert.deepEqual(current.blogPost.sections[0]?.quotes, [{ text: 'Inner' }]);

  const schema = await query<{
    union: { possibleTypes: { name: string }[] } | null;
    block: { description: string } | null;
  }>(`{
    union: __type(name: "BlogPostModelSectionsField") { possibleTypes { name } }
    block: __type(name: "HeroRecord") { description }
  }`);
  assert.deepEqual(schema.union?.possibleTypes.map((type) => type.name).sort(), [
    'HeroRecord',
    'QuoteRecord',
  ]);
  assert.equal(schema.block?.description, 'Block of type Hero (hero)');
});

test('a localized field reads the locale asked, falling back when it is blank', async () => {
  const data = await query<{ allBlogPosts: { title: string | null }[] }>(`{
    allBlogPosts(locale: it, fallbackLocales: [en], orderBy: [views_ASC]) { title }
  }`);
  assert.deepEqual(
    data.allBlogPosts.map((post) => post.title),
    ['Uno', 'Two', 'Tre'],
  );
  const without = await query<{ allBlogPosts: { title: string | null }[] }>(`{
    allBlogPosts(locale: it, orderBy: [views_ASC]) { title }
  }`);
  assert.deepEqual(
    without.allBlogPosts.map((post) => post.title),
    ['Uno', null, 'Tre'],
  );
});

test('published reads leave drafts out; X-Include-Drafts reads them with a preview token', async () => {
  const published = await query<{ _allBlogPostsMeta: { count: number } }>(
    '{ _allBlogPostsMeta { count } }',
  );
  assert.equal(published._allBlogPostsMeta.count, 3);
  const drafts = await query<{ blogPost: { title: string; _status: string } }>(
    `{ blogPost(filter: { id: { eq: "${ids.draft}" } }) { title _status } }`,
    { token: previewToken, includeDrafts: true },
  );
  assert.deepEqual(drafts.blogPost, { title: 'Draft', _status: 'draft' });
  const refused = await apiErrorOf(query('{ _site { locales } }', { includeDrafts: true }));
  assert.equal(refused.response.status, 403);
});

test('a token without CDA access is refused with the documented error', async () => {
  const cmaOnly = await deliveryToken(server.db, { cda: false, preview: false, cma: true });
  const error = await apiErrorOf(query('{ _site { locales } }', { token: cmaOnly }));
  assert.equal(error.response.status, 401);
  const body = error.response.body as { data: { attributes: { code: string } }[] };
  assert.equal(body.data[0]?.attributes.code, 'INVALID_AUTHORIZATION_HEADER');
});

test('introspection describes the generated types with DatoCMS names', async () => {
  const data = await query<{ __schema: { types: { name: string }[] } }>(getIntrospectionQuery());
  const names = data.__schema.types.map((type) => type.name);
  for (const name of [
    'BlogPostRecord',
    'AuthorRecord',
    'BlogPostModelFilter',
    'BlogPostModelOrderBy',
    'SiteLocale',
    'ItemId',
  ]) {
    assert.ok(names.includes(name), `${name} is in the schema`);
  }
  const site = await query<{ _site: { locales: string[] } }>('{ _site { locales } }');
  assert.deepEqual(site._site.locales, ['en', 'it']);
});

test('a new field is served by the very next query', async () => {
  await buildField(client, {
    itemTypeId: ids.postModel as string,
    api_key: 'sub_title',
    field_type: 'string',
  });
  const data = await query<{ allBlogPosts: { subTitle: string | null }[] }>(
    '{ allBlogPosts { subTitle } }',
  );
  assert.equal(data.allBlogPosts.length, 3);
});

test('bounds: first past 500 and an over-complex query are GraphQL errors', async () => {
  const tooMany = await apiErrorOf(query('{ allBlogPosts(first: 501) { id } }'));
  assert.match(JSON.stringify(tooMany.response.body), /first must be between 0 and 500/);
  const nested = `{ allBlogPosts(first: 500) { ${'related { '.repeat(8)}id${' }'.repeat(8)} } }`;
  const complex = await apiErrorOf(query(nested));
  assert.match(
    JSON.stringify(complex.response.body),
    /Query has complexity of \d+, which exceeds max complexity of 10000000/,
  );
});

test('GET and the deprecated preview path answer too', async () => {
  const get = await fetch(
    `${endpoint}?query=${encodeURIComponent('{ _allBlogPostsMeta { count } }')}`,
    {
      headers: { authorization: `Bearer ${readToken}` },
    },
  );
  assert.equal(get.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(await get.json(), { data: { _allBlogPostsMeta: { count: 3 } } });
  const preview = await executeQuery<{ _allBlogPostsMeta: { count: number } }>(
    '{ _allBlogPostsMeta { count } }',
    { token: previewToken, graphqlEndpointUrl: `${endpoint}/preview`, autoRetry: false },
  );
  assert.equal(preview._allBlogPostsMeta.count, 4);
});

test('tree models serve parent, children by position and position; filters and order by them', async () => {
  const category = await client.itemTypes.create(
    { name: 'Category', api_key: 'category', tree: true, draft_mode_active: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: category.id, api_key: 'name', field_type: 'string' });
  const make = async (name: string, parentId: string | null, publish = true) => {
    const record = await client.items.create({
      item_type: itemTypeRef(category.id),
      name,
      ...(parentId ? { parent_id: parentId } : {}),
    });
    if (publish) await client.items.publish(record.id);
    return record.id;
  };
  const first = await make('First', null);
  const second = await make('Second', null);
  const a = await make('A', first);
  const b = await make('B', first);
  await make('Hidden', first, false);
  await make('C', second);
  await make('A1', a);

  type Node = { name: string; position: number; parent: { name: string } | null };
  type Tree = Node & { children: (Node & { children: { name: string }[] })[] };
  const data = await query<{ allCategories: Tree[] }>(`{
    allCategories(filter: { parent: { exists: false } }, orderBy: [position_ASC]) {
      name position parent { name }
      children { name position parent { name } children { name } }
    }
  }`);
  const shape = data.allCategories.map((root) => ({
    name: root.name,
    parent: root.parent,
    children: root.children.map((child) => [child.name, child.parent?.name, child.children]),
  }));
  assert.deepEqual(shape, [
    {
      name: 'First',
      parent: null,
      children: [
        ['A', 'First', [{ name: 'A1' }]],
        ['B', 'First', []],
      ],
    },
    { name: 'Second', parent: null, children: [['C', 'Second', []]] },
  ]);
  assert.deepEqual(
    data.allCategories[0]?.children.map((child) => child.position),
    [(await client.items.find(a)).position, (await client.items.find(b)).position],
  );

  const byPosition = await query<{ allCategories: { name: string }[] }>(
    `query Kids($parent: ItemId) {
      allCategories(filter: { parent: { eq: $parent } }, orderBy: [position_DESC]) { name }
    }`,
    { variables: { parent: first } },
  );
  assert.deepEqual(
    byPosition.allCategories.map((node) => node.name),
    ['B', 'A'],
  );

  const statements = async (first: number) => {
    const [, response] = await rawExecuteQuery(
      `{ allCategories(first: ${first}, filter: { parent: { exists: false } }, orderBy: [position_ASC]) {
        children { name children { name } }
      } }`,
      { token: readToken, graphqlEndpointUrl: endpoint, autoRetry: false },
    );
    return Number(response.headers.get('x-fieldhouse-queries'));
  };
  assert.equal(await statements(1), await statements(2));
});

test('_locales lists the locales a record is in, on models with localized fields only', async () => {
  const page = await client.itemTypes.create(
    { name: 'Page', api_key: 'page' },
    { skip_menu_item_creation: true },
  );
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'heading',
    field_type: 'string',
    localized: true,
  });
  await buildField(client, { itemTypeId: page.id, api_key: 'rank', field_type: 'integer' });
  await client.items.create({
    item_type: itemTypeRef(page.id),
    heading: { en: 'Both', it: 'Entrambi' },
    rank: 1,
  });
  await client.items.create({ item_type: itemTypeRef(page.id), heading: { it: 'Solo' }, rank: 2 });
  const data = await query<{ allPages: { _locales: string[] }[] }>(
    '{ allPages(orderBy: [rank_ASC]) { _locales } }',
  );
  assert.deepEqual(
    data.allPages.map((record) => record._locales),
    [['en', 'it'], ['it']],
  );
  const author = await query<{ __type: { fields: { name: string }[] } }>(
    '{ __type(name: "AuthorRecord") { fields { name } } }',
  );
  assert.ok(!author.__type.fields.some((field) => field.name === '_locales'));
});

test('deep_filtering_enabled lets a filter reach into the blocks of a field', async () => {
  const data = await query<{ allBlogPosts: { title: string }[] }>(`{
    allBlogPosts(filter: { sections: { any: { hero: { heading: { eq: "Two hero" } } } } }) { title }
  }`);
  assert.deepEqual(data.allBlogPosts, [{ title: 'Two' }]);
  const both = await query<{ allBlogPosts: { title: string }[] }>(`{
    allBlogPosts(
      filter: { sections: { any: { hero: { heading: { matches: { pattern: "hero" } } }, quote: { text: { eq: "Three said" } } } } }
    ) { title }
  }`);
  assert.deepEqual(both.allBlogPosts, [{ title: 'Three' }]);
  // A block field without deep filtering takes no filter, as in DatoCMS.
  const refused = await apiErrorOf(
    query(
      '{ allBlogPosts(filter: { lead: { any: { quote: { text: { eq: "x" } } } } }) { title } }',
    ),
  );
  assert.match(JSON.stringify(refused.response.body), /lead/);
});
