import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ApiError, executeQuery, rawExecuteQuery } from '@datocms/cda-client';
import { deliveryToken } from '../support/delivery-tokens.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// Text fields through the delivery API: the stored text, or with `markdown: true` its
// Markdown rendered to HTML (CommonMark, raw HTML escaped), for the field and for
// `_all<Field>Locales`; records made with the official CMA client.

const server = useTestServer();
const client = server.client();

let options: { token: string; graphqlEndpointUrl: string; autoRetry: false };

const BODY = [
  '# Title',
  '',
  'Some *emphasis* and a [link](https://example.com).',
  '',
  '<script>alert(1)</script> [bad](javascript:alert(1))',
].join('\n');

before(async () => {
  await server.ready();
  options = {
    token: await deliveryToken(server.db, { preview: false }),
    graphqlEndpointUrl: `${server.baseUrl}/graphql`,
    autoRetry: false,
  };
  await client.site.update({ locales: ['en', 'it'] });
  const model = await buildModel(client, { api_key: 'note' });
  await buildField(client, { itemTypeId: model.id, api_key: 'body', field_type: 'text' });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'summary',
    field_type: 'text',
    localized: true,
  });
  const note = await client.items.create({
    item_type: itemTypeRef(model.id),
    body: BODY,
    summary: { en: '**Bold** words', it: null },
  });
  await client.items.publish(note.id);
  await publishedText('long_note', 'word '.repeat(40_000));
  await publishedText('huge_note', 'word '.repeat(62_000));
});

/** A model of one text field, `body`, and one published record holding `body`. */
async function publishedText(apiKey: string, body: string): Promise<void> {
  const model = await buildModel(client, { api_key: apiKey });
  await buildField(client, { itemTypeId: model.id, api_key: 'body', field_type: 'text' });
  const record = await client.items.create({ item_type: itemTypeRef(model.id), body });
  await client.items.publish(record.id);
}

test('a text field is its stored text, or with markdown: true its Markdown as HTML', async () => {
  const { note } = await executeQuery<{ note: Record<string, string> }>(
    '{ note { plain: body html: body(markdown: true) off: body(markdown: false) } }',
    options,
  );
  assert.equal(note.plain, BODY);
  assert.equal(note.off, BODY);
  assert.match(
    note.html ?? '',
    /^<h1>Title<\/h1>\n<p>Some <em>emphasis<\/em> and a <a href="https:\/\/example.com">link<\/a>\.<\/p>/,
  );
  // An editor's raw HTML is text in the page, and a script URL is no link.
  assert.match(note.html ?? '', /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.doesNotMatch(note.html ?? '', /<script|href="javascript:/);
});

test('_all<Field>Locales renders each locale as the field does, with its fallbacks', async () => {
  const { note } = await executeQuery<{
    note: { _allSummaryLocales: { locale: string; value: string }[] };
  }>(
    '{ note { _allSummaryLocales(markdown: true, fallbackLocales: [en]) { locale value } } }',
    options,
  );
  assert.deepEqual(note._allSummaryLocales, [
    { locale: 'en', value: '<p><strong>Bold</strong> words</p>\n' },
    { locale: 'it', value: '<p><strong>Bold</strong> words</p>\n' },
  ]);
});

test('the schema gives text fields their markdown argument, and rendering costs 5', async () => {
  const { __type } = await executeQuery<{
    __type: { fields: { name: string; args: { name: string; type: { name: string } }[] }[] };
  }>('{ __type(name: "NoteRecord") { fields { name args { name type { name } } } } }', options);
  const body = __type.fields.find((field) => field.name === 'body');
  assert.deepEqual(body?.args, [{ name: 'markdown', type: { name: 'Boolean' } }]);
  const summary = __type.fields.find((field) => field.name === 'summary');
  assert.deepEqual(
    summary?.args.map((arg) => arg.name),
    ['locale', 'fallbackLocales', 'markdown'],
  );
  const complexity = async (document: string) =>
    Number((await rawExecuteQuery(document, options))[1].headers.get('x-complexity'));
  // `note` costs 50 with its fields: the text 1 plain, 5 rendered.
  assert.equal(await complexity('{ note { body } }'), 51);
  assert.equal(await complexity('{ note { body(markdown: true) } }'), 55);
});

test('a query renders many texts of Markdown, up to 3 MiB in all: past it the field is a GraphQL error', async () => {
  // Two texts of 200,000 characters render: past one text's bound together.
  const twice = await executeQuery<{ longNote: { a: string; b: string } }>(
    '{ longNote { a: body(markdown: true) b: body(markdown: true) } }',
    options,
  );
  assert.ok(twice.longNote.a.startsWith('<p>word word'));
  assert.equal(twice.longNote.b, twice.longNote.a);
  // Sixteen are 3,200,000 characters: past the query's bound (3,145,728).
  const aliases = Array.from({ length: 16 }, (_, index) => `t${index}: body(markdown: true)`);
  const many = await executeQuery(`{ longNote { ${aliases.join(' ')} } }`, options).then(
    () => assert.fail('the query succeeded'),
    (error: unknown) => error,
  );
  assert.ok(many instanceof ApiError);
  assert.match(
    JSON.stringify(many.response.body),
    /Query renders more than 3145728 characters of Markdown/,
  );
});

test('one text renders as Markdown up to 300 KB: a longer one is a GraphQL error, served whole without markdown', async () => {
  const rendered = await executeQuery('{ hugeNote { body(markdown: true) } }', options).then(
    () => assert.fail('the query succeeded'),
    (error: unknown) => error,
  );
  assert.ok(rendered instanceof ApiError);
  assert.match(
    JSON.stringify(rendered.response.body),
    /A text of 310000 characters is longer than the 307200 that render as Markdown/,
  );
  const plain = await executeQuery<{ hugeNote: { body: string } }>(
    '{ hugeNote { body } }',
    options,
  );
  assert.equal(plain.hugeNote.body.length, 310_000);
});
