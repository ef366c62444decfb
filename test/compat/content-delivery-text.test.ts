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
  const long = await buildModel(client, { api_key: 'long_note' });
  await buildField(client, { itemTypeId: long.id, api_key: 'body', field_type: 'text' });
  const record = await client.items.create({
    item_type: itemTypeRef(long.id),
    body: 'word '.repeat(40_000),
  });
  await client.items.publish(record.id);
});

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

test('a query renders at most 300 KB of Markdown: past it the field is a GraphQL error', async () => {
  // 200,000 characters render once; twice is past the bound, and nothing past it renders.
  const once = await executeQuery<{ longNote: { body: string } }>(
    '{ longNote { body(markdown: true) } }',
    options,
  );
  assert.ok(once.longNote.body.startsWith('<p>word word'));
  const twice = await executeQuery(
    '{ longNote { a: body(markdown: true) b: body(markdown: true) } }',
    options,
  ).then(
    () => assert.fail('the query succeeded'),
    (error: unknown) => error,
  );
  assert.ok(twice instanceof ApiError);
  assert.match(
    JSON.stringify(twice.response.body),
    /Query renders more than 307200 characters of Markdown/,
  );
  // Without markdown the same text is served whole.
  const plain = await executeQuery<{ longNote: { a: string; b: string } }>(
    '{ longNote { a: body b: body } }',
    options,
  );
  assert.equal(plain.longNote.a.length, 200_000);
});
