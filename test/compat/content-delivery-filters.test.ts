import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ApiError, executeQuery, rawExecuteQuery } from '@datocms/cda-client';
import { rejectsWithMessage } from '../support/api-errors.ts';
import { type DeliveryOptions, deliveryOptions } from '../support/delivery-tokens.ts';
import { blockInRequest, buildField, itemTypeRef } from '../support/factories.ts';
import { localFile, solidImage } from '../support/images.ts';
import { useTestServer } from '../support/server.ts';

// Filters of the delivery API beyond each field's own operators: StructuredTextFilter,
// `_locales`, deep filtering's `containsAny` / `exists`, UploadFilter's `colors` and
// `inUse`; and the complexity of `_all<Field>Locales`. Everything made with the CMA client.

const server = useTestServer();
const client = server.client();

let options: DeliveryOptions;
const ids: Record<string, string> = {};

function query<T = Record<string, { id: string }[]>>(document: string, drafts = false) {
  return executeQuery<T>(document, options(drafts));
}

/** The ids a list of records or uploads holds, as a set (order is not the question). */
const idsOf = (list: { id: string }[] | undefined) => new Set((list ?? []).map((r) => r.id));

const paragraph = (...values: string[]) => ({
  type: 'paragraph',
  children: values.map((value) => ({ type: 'span', value })),
});
const dast = (...children: unknown[]) => ({
  schema: 'dast',
  document: { type: 'root', children },
});

before(async () => {
  await server.ready();
  options = await deliveryOptions(server);
  await client.site.update({ locales: ['en', 'it', 'de'] });
  const red = await client.uploads.createFromLocalFile({
    localPath: localFile('red.png', await solidImage(40, 40, { r: 210, g: 20, b: 20 })),
  });
  ids.red = red.id;
  const blue = await client.uploads.createFromLocalFile({
    localPath: localFile('blue.png', await solidImage(40, 40, { r: 20, g: 20, b: 210 })),
  });
  ids.blue = blue.id;
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
  const page = await client.itemTypes.create(
    { name: 'Page', api_key: 'page', draft_mode_active: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'title',
    field_type: 'string',
    localized: true,
  });
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'body',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [] },
      structured_text_links: { item_types: [] },
    },
  });
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'sections',
    field_type: 'rich_text',
    deep_filtering_enabled: true,
    validators: { rich_text_blocks: { item_types: [hero.id, quote.id] } },
  });
  await buildField(client, { itemTypeId: page.id, api_key: 'cover', field_type: 'file' });
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'story',
    field_type: 'structured_text',
    deep_filtering_enabled: true,
    validators: {
      structured_text_blocks: { item_types: [hero.id, quote.id] },
      structured_text_links: { item_types: [] },
    },
  });
  const block = (model: string, attributes: Record<string, unknown>) =>
    blockInRequest({ itemTypeId: model, attributes });
  const blockNode = (model: string, attributes: Record<string, unknown>) => ({
    type: 'block',
    item: block(model, attributes),
  });
  const pages: [string, Record<string, unknown>][] = [
    [
      'full',
      {
        title: { en: 'Full', it: 'Pieno', de: 'Voll' },
        body: dast(paragraph('Hello ', 'world')),
        sections: [block(hero.id, { heading: 'Top' }), block(quote.id, { text: 'Said' })],
        cover: { upload_id: red.id },
        story: dast(paragraph('Once'), blockNode(hero.id, { heading: 'Story hero' })),
      },
    ],
    [
      'emptyParagraph',
      {
        title: { en: 'Empty', it: 'Vuoto' },
        body: dast(paragraph('')),
        sections: [block(quote.id, { text: 'Only a quote' })],
        story: dast(paragraph('Quiet')),
      },
    ],
    ['noBody', { title: { en: 'None' }, body: null, sections: [] }],
    [
      'blockOnly',
      {
        title: { de: 'Nur' },
        body: dast({ type: 'heading', level: 2, children: [{ type: 'span', value: 'Title' }] }),
        sections: [block(hero.id, { heading: 'Alone' })],
        story: dast(blockNode(quote.id, { text: 'Story said' })),
      },
    ],
  ];
  for (const [key, values] of pages) {
    const record = await client.items.create({
      item_type: itemTypeRef(page.id),
      ...values,
    } as never);
    await client.items.publish(record.id);
    ids[key] = record.id;
  }
  // A draft gains a hero block its published version lacks.
  await client.items.update(
    ids.emptyParagraph as string,
    {
      sections: [block(hero.id, { heading: 'Later' })],
    } as never,
  );
});

test('StructuredTextFilter: isBlank, isPresent, exists and matches as DatoCMS documents them', async () => {
  const result = await query(
    `{ blank: allPages(filter: {body: {isBlank: true}}) { id }
       notBlank: allPages(filter: {body: {isBlank: false}}) { id }
       present: allPages(filter: {body: {isPresent: true}}) { id }
       exists: allPages(filter: {body: {exists: true}}) { id }
       missing: allPages(filter: {body: {exists: false}}) { id }
       hello: allPages(filter: {body: {matches: {pattern: "hello"}}}) { id }
       notHello: allPages(filter: {body: {notMatches: {pattern: "hello"}}}) { id } }`,
  );
  assert.deepEqual(result.blank && idsOf(result.blank), new Set([ids.emptyParagraph, ids.noBody]));
  assert.deepEqual(idsOf(result.notBlank), new Set([ids.full, ids.blockOnly]));
  assert.deepEqual(idsOf(result.present), new Set([ids.full, ids.blockOnly]));
  assert.deepEqual(idsOf(result.exists), new Set([ids.full, ids.emptyParagraph, ids.blockOnly]));
  assert.deepEqual(idsOf(result.missing), new Set([ids.noBody]));
  assert.deepEqual(idsOf(result.hello), new Set([ids.full]));
  assert.deepEqual(
    idsOf(result.notHello),
    new Set([ids.emptyParagraph, ids.noBody, ids.blockOnly]),
  );
});

test('the _locales filter selects records by the locales they are in: allIn, anyIn, notIn', async () => {
  const result = await query(
    `{ enIt: allPages(filter: {_locales: {allIn: [en, it]}}) { id }
       deOrIt: allPages(filter: {_locales: {anyIn: [de, it]}}) { id }
       notDe: allPages(filter: {_locales: {notIn: [de]}}) { id }
       either: allPages(filter: {OR: [{_locales: {allIn: [de]}}, {_locales: {notIn: [it]}}]}) { id }
       count: _allPagesMeta(filter: {_locales: {anyIn: [it]}}) { count } }`,
  );
  assert.deepEqual(idsOf(result.enIt), new Set([ids.full, ids.emptyParagraph]));
  assert.deepEqual(idsOf(result.deOrIt), new Set([ids.full, ids.emptyParagraph, ids.blockOnly]));
  assert.deepEqual(idsOf(result.notDe), new Set([ids.emptyParagraph, ids.noBody]));
  assert.deepEqual(idsOf(result.either), new Set([ids.full, ids.noBody, ids.blockOnly]));
  assert.deepEqual(result.count, { count: 2 });
  const schema = await query<{
    __type: { inputFields: { name: string; type: { name: string } }[] };
  }>('{ __type(name: "LocalesFilter") { inputFields { name type { name } } } }');
  assert.deepEqual(
    schema.__type.inputFields.map((field) => field.name),
    ['allIn', 'anyIn', 'notIn'],
  );
});

test('a _locales filter names at most as many locales as a site may have; repeats count once', async () => {
  const repeated = await client.items.list({
    filter: { type: 'page', fields: { _locales: { any_in: Array(500).fill('it').join(',') } } },
  });
  assert.deepEqual(
    idsOf(repeated),
    idsOf(
      await client.items.list({
        filter: { type: 'page', fields: { _locales: { any_in: 'it' } } },
      }),
    ),
  );
  const many = Array.from({ length: 101 }, (_, i) => `x${i}`).join(',');
  await rejectsWithMessage(
    client.items.list({ filter: { type: 'page', fields: { _locales: { any_in: many } } } }),
    'INVALID_FILTER_FIELDS_PARAM',
    /names 101 locales; a site has at most 100/,
  );
});

test('deep filtering: containsAny and exists select records by the blocks a field holds', async () => {
  const document = `{ hero: allPages(filter: {sections: {containsAny: {hero: true}}}) { id }
       quoteNoHero: allPages(filter: {sections: {containsAny: {quote: true, hero: false}}}) { id }
       some: allPages(filter: {sections: {exists: true}}) { id }
       none: allPages(filter: {sections: {exists: false}}) { id }
       both: allPages(filter: {sections: {exists: true, any: {quote: {text: {eq: "Said"}}}}}) { id } }`;
  const published = await query(document);
  assert.deepEqual(idsOf(published.hero), new Set([ids.full, ids.blockOnly]));
  assert.deepEqual(idsOf(published.quoteNoHero), new Set([ids.emptyParagraph]));
  assert.deepEqual(idsOf(published.some), new Set([ids.full, ids.emptyParagraph, ids.blockOnly]));
  assert.deepEqual(idsOf(published.none), new Set([ids.noBody]));
  assert.deepEqual(idsOf(published.both), new Set([ids.full]));
  // Drafts read the current version, whose blocks are stored apart.
  const drafts = await query(document, true);
  assert.deepEqual(idsOf(drafts.hero), new Set([ids.full, ids.emptyParagraph, ids.blockOnly]));
  assert.deepEqual(idsOf(drafts.quoteNoHero), new Set());
  assert.deepEqual(idsOf(drafts.none), new Set([ids.noBody]));
});

test("UploadFilter's colors and inUse", async () => {
  const result = await query(
    `{ red: allUploads(filter: {colors: {contains: red}}) { id }
       redOrBlue: allUploads(filter: {colors: {anyIn: [red, null, blue]}}) { id }
       notRed: allUploads(filter: {colors: {notIn: [red]}}) { id }
       onlyBlue: allUploads(filter: {colors: {eq: [blue]}}) { id }
       used: allUploads(filter: {inUse: {eq: true}}) { id }
       unused: allUploads(filter: {inUse: {eq: false}}) { id }
       usedCount: _allUploadsMeta(filter: {inUse: {eq: true}}) { count } }`,
  );
  assert.deepEqual(idsOf(result.red), new Set([ids.red]));
  assert.deepEqual(idsOf(result.redOrBlue), new Set([ids.red, ids.blue]));
  assert.deepEqual(idsOf(result.notRed), new Set([ids.blue]));
  assert.deepEqual(idsOf(result.onlyBlue), new Set([ids.blue]));
  assert.deepEqual(idsOf(result.used), new Set([ids.red]));
  assert.deepEqual(idsOf(result.unused), new Set([ids.blue]));
  assert.deepEqual(result.usedCount, { count: 1 });
});

test('_all<Field>Locales costs the site locales × its selection', async () => {
  const [, response] = await rawExecuteQuery(
    '{ allPages(first: 1) { _allTitleLocales { locale value } } }',
    options(false),
  );
  // 100 for the collection + first (1) × (3 locales × 2 fields).
  assert.equal(response.headers.get('x-complexity'), '106');
});

test('inverse relationships: through.locales names the locales whose links count', async () => {
  const person = await client.itemTypes.create(
    { name: 'Person', api_key: 'person', inverse_relationships_enabled: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: person.id, api_key: 'name', field_type: 'string' });
  const article = await client.itemTypes.create(
    { name: 'Article', api_key: 'article' },
    { skip_menu_item_creation: true },
  );
  const toPerson = { item_item_type: { item_types: [person.id] } };
  await buildField(client, {
    itemTypeId: article.id,
    api_key: 'writer',
    field_type: 'link',
    localized: true,
    validators: toPerson,
  });
  await buildField(client, {
    itemTypeId: article.id,
    api_key: 'editor',
    field_type: 'link',
    validators: toPerson,
  });
  const ada = await client.items.create({ item_type: itemTypeRef(person.id), name: 'Ada' });
  await client.items.publish(ada.id);
  const made: Record<string, string> = {};
  const articles: [string, Record<string, unknown>][] = [
    ['writtenInEn', { writer: { en: ada.id, it: null, de: null }, editor: null }],
    ['writtenInIt', { writer: { en: null, it: ada.id, de: null }, editor: null }],
    ['edited', { writer: { en: null, it: null, de: null }, editor: ada.id }],
  ];
  for (const [key, values] of articles) {
    const record = await client.items.create({
      item_type: itemTypeRef(article.id),
      ...values,
    } as never);
    await client.items.publish(record.id);
    made[key] = record.id;
  }
  const result = await query<{
    person: Record<string, { id: string }[] | { count: number }>;
  }>(
    `{ person(filter: {id: {eq: "${ada.id}"}}) {
         all: _allReferencingArticles { id }
         en: _allReferencingArticles(through: {locales: {anyIn: [en]}}) { id }
         notEn: _allReferencingArticles(through: {locales: {notIn: [en]}}) { id }
         plain: _allReferencingArticles(through: {locales: {anyIn: [_nonLocalized]}}) { id }
         localizedWriter: _allReferencingArticles(through: {fields: {anyIn: [article_writer]}, locales: {notIn: [it]}}) { id }
         itCount: _allReferencingArticlesMeta(through: {locales: {anyIn: [it]}}) { count } } }`,
  );
  const list = (name: string) => idsOf(result.person[name] as { id: string }[]);
  assert.deepEqual(list('all'), new Set(Object.values(made)));
  assert.deepEqual(list('en'), new Set([made.writtenInEn]));
  assert.deepEqual(list('notEn'), new Set([made.writtenInIt, made.edited]));
  assert.deepEqual(list('plain'), new Set([made.edited]));
  assert.deepEqual(list('localizedWriter'), new Set([made.writtenInEn]));
  assert.deepEqual(result.person.itCount, { count: 1 });
});

test('deep filtering a structured text field: its text under value, its blocks under blocks', async () => {
  const document = `{
    heroes: allPages(filter: {story: {blocks: {any: {hero: {heading: {eq: "Story hero"}}}}}}) { id }
    withQuote: allPages(filter: {story: {blocks: {containsAny: {quote: true}}}}) { id }
    withBlocks: allPages(filter: {story: {blocks: {exists: true}}}) { id }
    noBlocks: allPages(filter: {story: {blocks: {exists: false}}}) { id }
    textAndHero: allPages(filter: {story: {value: {matches: {pattern: "once"}}, blocks: {containsAny: {hero: true}}}}) { id }
    quiet: allPages(filter: {story: {value: {matches: {pattern: "quiet"}}}}) { id }
    blocksButNoHero: allPages(filter: {story: {blocks: {exists: true, containsAny: {hero: false}}}}) { id }
  }`;
  for (const drafts of [false, true]) {
    const result = await query(document, drafts);
    assert.deepEqual(idsOf(result.heroes), new Set([ids.full]), `drafts: ${drafts}`);
    assert.deepEqual(idsOf(result.withQuote), new Set([ids.blockOnly]));
    assert.deepEqual(idsOf(result.withBlocks), new Set([ids.full, ids.blockOnly]));
    assert.deepEqual(idsOf(result.noBlocks), new Set([ids.emptyParagraph, ids.noBody]));
    assert.deepEqual(idsOf(result.textAndHero), new Set([ids.full]));
    assert.deepEqual(idsOf(result.quiet), new Set([ids.emptyParagraph]));
    assert.deepEqual(idsOf(result.blocksButNoHero), new Set([ids.blockOnly]));
  }
  // Without deep filtering a structured text field keeps its own operators at the top.
  await assert.rejects(
    query('{ allPages(filter: {body: {blocks: {exists: true}}}) { id } }'),
    (error: unknown) =>
      error instanceof ApiError && /blocks/.test(JSON.stringify(error.response.body)),
  );
});

test('a deep filter costs 1,000,000 per block model it names, its operators 250 each', async () => {
  const complexity = async (filter: string) => {
    const [, response] = await rawExecuteQuery(
      `{ allPages(first: 1, filter: ${filter}) { id } }`,
      options(false),
    );
    return Number(response.headers.get('x-complexity'));
  };
  // 100 for the collection + first (1) × 1 field, plus the filter.
  assert.equal(
    await complexity('{sections: {any: {hero: {heading: {eq: "x"}}, quote: {text: {eq: "y"}}}}}'),
    101 + 2 * (1_000_000 + 250),
  );
  assert.equal(
    await complexity(
      '{story: {value: {matches: {pattern: "a"}}, blocks: {any: {hero: {heading: {eq: "x"}}}, containsAny: {quote: true, hero: false}}}}',
    ),
    101 + 250 + (1_000_000 + 250) + 2 * 1_000_000,
  );
  assert.equal(await complexity('{title: {eq: "x"}, sections: {exists: true}}'), 101 + 2 * 250);
});
