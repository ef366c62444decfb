import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { executeQuery, rawExecuteQuery } from '@datocms/cda-client';
import { type DeliveryOptions, deliveryOptions } from '../support/delivery-tokens.ts';
import { blockInRequest, buildField, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// Inverse relationships are blocks-aware (DatoCMS, Content Delivery API › Inverse
// relationships): a link inside a block of a record, at any depth, makes the record
// referencing; `through.fields` names such a link by its route
// (`docPage_main__chapter_author`). A structured text's `itemLink` and `inlineItem` nodes
// are links too (its `structured_text_links` models). Everything made with the CMA client.

const server = useTestServer();
const client = server.client();

let options: DeliveryOptions;
const ids: Record<string, string> = {};

const idsOf = (list: unknown) => new Set((list as { id: string }[]).map((record) => record.id));

before(async () => {
  await server.ready();
  options = await deliveryOptions(server);
  await client.site.update({ locales: ['en', 'it'] });
  const person = await client.itemTypes.create(
    { name: 'Person', api_key: 'person', inverse_relationships_enabled: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: person.id, api_key: 'name', field_type: 'string' });
  const toPerson = { item_item_type: { item_types: [person.id] } };
  const quote = await client.itemTypes.create({
    name: 'Quote',
    api_key: 'quote',
    modular_block: true,
  });
  await buildField(client, {
    itemTypeId: quote.id,
    api_key: 'by',
    field_type: 'link',
    validators: toPerson,
  });
  const chapter = await client.itemTypes.create({
    name: 'Chapter',
    api_key: 'chapter',
    modular_block: true,
  });
  await buildField(client, {
    itemTypeId: chapter.id,
    api_key: 'author',
    field_type: 'link',
    validators: toPerson,
  });
  await buildField(client, {
    itemTypeId: chapter.id,
    api_key: 'body',
    field_type: 'rich_text',
    validators: { rich_text_blocks: { item_types: [quote.id] } },
  });
  await buildField(client, {
    itemTypeId: chapter.id,
    api_key: 'note',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [] },
      structured_text_links: { item_types: [person.id] },
    },
  });
  const page = await client.itemTypes.create(
    { name: 'Doc page', api_key: 'doc_page', draft_mode_active: true },
    { skip_menu_item_creation: true },
  );
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'main',
    field_type: 'rich_text',
    validators: { rich_text_blocks: { item_types: [chapter.id] } },
  });
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'intro',
    field_type: 'single_block',
    localized: true,
    validators: { single_block_blocks: { item_types: [quote.id] } },
  });
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'content',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [quote.id] },
      structured_text_links: { item_types: [person.id] },
    },
  });
  await buildField(client, {
    itemTypeId: page.id,
    api_key: 'reviewer',
    field_type: 'link',
    validators: toPerson,
  });
  const ada = await client.items.create({ item_type: itemTypeRef(person.id), name: 'Ada' });
  const bob = await client.items.create({ item_type: itemTypeRef(person.id), name: 'Bob' });
  for (const id of [ada.id, bob.id]) await client.items.publish(id);
  ids.ada = ada.id;
  ids.bob = bob.id;
  const quoteBy = (id: string) => blockInRequest({ itemTypeId: quote.id, attributes: { by: id } });
  const chapterOf = (attributes: Record<string, unknown>) =>
    blockInRequest({
      itemTypeId: chapter.id,
      attributes: { author: null, body: [], note: null, ...attributes },
    });
  // Text naming a person only in words, and a person linked from a paragraph or inline.
  const dast = (...inline: Record<string, unknown>[]) => ({
    schema: 'dast',
    document: {
      type: 'root',
      children: [{ type: 'paragraph', children: [{ type: 'span', value: bob.id }, ...inline] }],
    },
  });
  const itemLink = (id: string) => ({
    type: 'itemLink',
    item: id,
    children: [{ type: 'span', value: 'see' }],
  });
  const pages: [string, Record<string, unknown>, boolean][] = [
    ['inChapter', { main: [chapterOf({ author: ada.id })] }, true],
    ['inQuoteOfChapter', { main: [chapterOf({ body: [quoteBy(ada.id)] })] }, true],
    ['inEnglishIntro', { intro: { en: quoteBy(ada.id), it: null } }, true],
    [
      'inStructuredText',
      {
        content: {
          schema: 'dast',
          document: { type: 'root', children: [{ type: 'block', item: quoteBy(ada.id) }] },
        },
      },
      true,
    ],
    ['linkedInText', { content: dast(itemLink(ada.id)) }, true],
    ['inlineInText', { content: dast({ type: 'inlineItem', item: ada.id }) }, true],
    ['linkedInChapterNote', { main: [chapterOf({ note: dast(itemLink(ada.id)) })] }, true],
    ['byBob', { reviewer: bob.id, main: [chapterOf({ author: bob.id })] }, true],
    ['bobInWordsOnly', { content: dast() }, true],
    ['draftOnly', { main: [chapterOf({ author: ada.id })] }, false],
  ];
  for (const [key, values, publish] of pages) {
    const record = await client.items.create({
      item_type: itemTypeRef(page.id),
      intro: { en: null, it: null },
      ...values,
    } as never);
    if (publish) await client.items.publish(record.id);
    ids[key] = record.id;
  }
});

const ADA_PAGES = `query Pages($id: ItemId) { person(filter: { id: { eq: $id } }) {
  all: _allReferencingDocPages { id }
  count: _allReferencingDocPagesMeta { count }
  chapters: _allReferencingDocPages(through: { fields: { anyIn: [docPage_main__chapter_author] } }) { id }
  nested: _allReferencingDocPages(through: { fields: { anyIn: [docPage_main__chapter_body__quote_by] } }) { id }
  notNested: _allReferencingDocPages(through: { fields: { notIn: [docPage_main__chapter_body__quote_by] } }) { id }
  structured: _allReferencingDocPages(through: { fields: { anyIn: [docPage_content__quote_by] } }) { id }
  textLinks: _allReferencingDocPages(through: { fields: { anyIn: [docPage_content] } }) { id }
  textLinksCount: _allReferencingDocPagesMeta(through: { fields: { anyIn: [docPage_content] } }) { count }
  noteLinks: _allReferencingDocPages(through: { fields: { anyIn: [docPage_main__chapter_note] } }) { id }
  english: _allReferencingDocPages(through: { locales: { anyIn: [en] } }) { id }
  italian: _allReferencingDocPages(through: { locales: { anyIn: [it] } }) { id }
  plain: _allReferencingDocPages(through: { locales: { anyIn: [_nonLocalized] } }) { id }
} }`;

test('a link inside blocks, at any depth, makes its record referencing; through names its route', async () => {
  for (const drafts of [false, true]) {
    const { person } = await executeQuery<{ person: Record<string, unknown> }>(ADA_PAGES, {
      ...options(drafts),
      variables: { id: ids.ada },
    });
    const published = [
      ids.inChapter,
      ids.inQuoteOfChapter,
      ids.inEnglishIntro,
      ids.inStructuredText,
      ids.linkedInText,
      ids.inlineInText,
      ids.linkedInChapterNote,
    ];
    const all = drafts ? [...published, ids.draftOnly] : published;
    const chapters = drafts ? [ids.inChapter, ids.draftOnly] : [ids.inChapter];
    assert.deepEqual(idsOf(person.all), new Set(all), `drafts: ${drafts}`);
    assert.deepEqual(person.count, { count: all.length });
    assert.deepEqual(idsOf(person.chapters), new Set(chapters));
    assert.deepEqual(idsOf(person.nested), new Set([ids.inQuoteOfChapter]));
    assert.deepEqual(
      idsOf(person.notNested),
      new Set(all.filter((id) => id !== ids.inQuoteOfChapter)),
    );
    assert.deepEqual(idsOf(person.structured), new Set([ids.inStructuredText]));
    assert.deepEqual(idsOf(person.textLinks), new Set([ids.linkedInText, ids.inlineInText]));
    assert.deepEqual(person.textLinksCount, { count: 2 });
    assert.deepEqual(idsOf(person.noteLinks), new Set([ids.linkedInChapterNote]));
    assert.deepEqual(idsOf(person.english), new Set([ids.inEnglishIntro]));
    assert.deepEqual(idsOf(person.italian), new Set());
    assert.deepEqual(idsOf(person.plain), new Set(all.filter((id) => id !== ids.inEnglishIntro)));
  }
});

test("a structured text's words are not links: an id in its text does not count", async () => {
  for (const drafts of [false, true]) {
    const { person } = await executeQuery<{ person: Record<string, unknown> }>(
      `query Bob($id: ItemId) { person(filter: { id: { eq: $id } }) {
        all: _allReferencingDocPages { id } count: _allReferencingDocPagesMeta { count } } }`,
      { ...options(drafts), variables: { id: ids.bob } },
    );
    assert.deepEqual(idsOf(person.all), new Set([ids.byBob]), `drafts: ${drafts}`);
    assert.deepEqual(person.count, { count: 1 });
  }
});

test('the routes are the values of <M>ModelFieldsReferencing<T>Model', async () => {
  const data = await executeQuery<{ __type: { enumValues: { name: string }[] } }>(
    '{ __type(name: "DocPageModelFieldsReferencingPersonModel") { enumValues { name } } }',
    options(false),
  );
  assert.deepEqual(data.__type.enumValues.map((value) => value.name).sort(), [
    'docPage_content',
    'docPage_content__quote_by',
    'docPage_intro__quote_by',
    'docPage_main__chapter_author',
    'docPage_main__chapter_body__quote_by',
    'docPage_main__chapter_note',
    'docPage_reviewer',
  ]);
});

test('inverse lists through blocks cost the same statements for one person as for many', async () => {
  const statements = async (first: number, drafts: boolean) => {
    const [, response] = await rawExecuteQuery(
      `{ allPeople(first: ${first}, orderBy: id_ASC) {
        _allReferencingDocPages { id } _allReferencingDocPagesMeta { count } } }`,
      options(drafts),
    );
    return Number(response.headers.get('x-fieldhouse-queries'));
  };
  for (const drafts of [false, true]) {
    assert.equal(await statements(1, drafts), await statements(2, drafts), `drafts: ${drafts}`);
  }
});
