import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { rejectsWithApiError, rejectsWithMessage } from '../support/api-errors.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

/** Record ids by letter, and letters by record id. */
const idOf: Record<string, string> = {};
const letterOf: Record<string, string> = {};
let modelId: string;

function dast(text: string) {
  return {
    schema: 'dast',
    document: {
      type: 'root',
      children: [{ type: 'paragraph', children: [{ type: 'span', value: text }] }],
    },
  };
}

before(async () => {
  const model = await buildModel(client, { draft_mode_active: true });
  modelId = model.id;
  const field = (api_key: string, field_type: string, extra: Record<string, unknown> = {}) =>
    buildField(client, { itemTypeId: model.id, api_key, field_type, ...extra });
  await field('title', 'string');
  await field('body', 'text');
  await field('slug', 'slug');
  await field('views', 'integer');
  await field('score', 'float');
  await field('day', 'date');
  await field('at', 'date_time');
  await field('flag', 'boolean');
  await field('tint', 'color');
  await field('data', 'json');
  await field('place', 'lat_lon');
  await field('cover', 'file');
  await field('photos', 'gallery');
  await field('clip', 'video');
  await field('search_meta', 'seo');
  await field('rich', 'rich_text', { validators: { rich_text_blocks: { item_types: [] } } });
  await field('link', 'link', { validators: { item_item_type: { item_types: [model.id] } } });
  await field('links', 'links', { validators: { items_item_type: { item_types: [model.id] } } });
  await field('story', 'structured_text', {
    validators: {
      structured_text_blocks: { item_types: [] },
      structured_text_links: { item_types: [model.id] },
    },
  });
  const create = async (letter: string, values: Record<string, unknown>) => {
    const record = await client.items.create({ item_type: itemTypeRef(model.id), ...values });
    idOf[letter] = record.id;
    letterOf[record.id] = letter;
  };
  await create('A', {
    title: 'Alpha post',
    body: 'The quick brown fox',
    slug: 'alpha',
    views: 10,
    score: 1.5,
    day: '2024-01-10',
    at: '2024-01-10T10:00:30Z',
    flag: true,
    tint: { red: 255, green: 0, blue: 0, alpha: 255 },
    data: '{"a":1}',
    place: { latitude: 45.4642, longitude: 9.19 },
    story: dast('hello world'),
  });
  await create('B', {
    title: 'Beta',
    body: '',
    slug: 'beta',
    views: 20,
    score: 2.5,
    day: '2024-02-10',
    at: '2024-02-10T10:00:00Z',
    flag: false,
    place: { latitude: 41.9028, longitude: 12.4964 },
    link: idOf.A,
    links: [idOf.A],
  });
  await create('C', { slug: 'gamma', links: [idOf.A, idOf.B], story: dast('goodbye') });
  // A published, B published then edited (updated), C a draft.
  await client.items.publish(idOf.A as string);
  await client.items.publish(idOf.B as string);
  await client.items.update(idOf.B as string, { views: 20 });
});

/** The letters of the records of the model a filter lists, sorted. */
async function letters(fields: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const records = await client.items.list({
    filter: { type: modelId, fields, ...extra },
    page: { limit: 500 },
  } as Parameters<Client['items']['list']>[0]);
  return records
    .map((record) => letterOf[record.id] ?? '?')
    .sort()
    .join('');
}

/** [field, operator, argument, letters expected]: each operator matches some and not others. */
const CASES: [string, string, unknown, string][] = [
  ['title', 'eq', 'Beta', 'B'],
  ['title', 'neq', 'Beta', 'AC'],
  ['title', 'in', ['Alpha post', 'Beta'], 'AB'],
  ['title', 'not_in', ['Beta'], 'AC'],
  ['title', 'matches', { pattern: '^alp' }, 'A'],
  ['title', 'matches', { pattern: '^alp', case_sensitive: true }, ''],
  ['title', 'matches', { pattern: 'a post', regexp: false }, 'A'],
  ['title', 'matches', { pattern: 'a.post', regexp: false }, ''],
  ['title', 'not_matches', { pattern: 'beta' }, 'AC'],
  ['title', 'is_blank', true, 'C'],
  ['title', 'is_blank', false, 'AB'],
  ['title', 'is_present', true, 'AB'],
  ['title', 'exists', false, 'C'],
  ['body', 'matches', { pattern: 'quick' }, 'A'],
  ['body', 'not_matches', { pattern: 'quick' }, 'BC'],
  ['body', 'is_blank', true, 'BC'],
  ['body', 'is_present', true, 'A'],
  ['body', 'exists', true, 'AB'],
  ['slug', 'eq', 'beta', 'B'],
  ['slug', 'neq', 'beta', 'AC'],
  ['slug', 'in', ['alpha', 'gamma'], 'AC'],
  ['slug', 'not_in', ['alpha'], 'BC'],
  ['views', 'eq', 10, 'A'],
  ['views', 'neq', 10, 'BC'],
  ['views', 'gt', 10, 'B'],
  ['views', 'lt', 20, 'A'],
  ['views', 'gte', 10, 'AB'],
  ['views', 'lte', 10, 'A'],
  ['views', 'exists', false, 'C'],
  ['score', 'eq', 2.5, 'B'],
  ['score', 'gt', 2, 'B'],
  ['score', 'lte', 1.5, 'A'],
  ['score', 'exists', true, 'AB'],
  ['day', 'eq', '2024-01-10', 'A'],
  ['day', 'neq', '2024-01-10', 'BC'],
  ['day', 'gt', '2024-01-10', 'B'],
  ['day', 'lt', '2024-02-10', 'A'],
  ['day', 'gte', '2024-01-10', 'AB'],
  ['day', 'lte', '2024-01-10', 'A'],
  ['day', 'exists', false, 'C'],
  ['at', 'eq', '2024-01-10T10:00:00Z', 'A'],
  ['at', 'eq', '2024-01-10T10:01:00Z', ''],
  ['at', 'neq', '2024-01-10T10:00:00Z', 'BC'],
  ['at', 'gt', '2024-01-10T10:00:45Z', 'AB'],
  ['at', 'lt', '2024-02-10T10:00:00Z', 'A'],
  ['at', 'gte', '2024-02-10T10:00:59Z', 'B'],
  ['at', 'lte', '2024-01-10T10:01:00Z', 'A'],
  ['at', 'exists', true, 'AB'],
  ['flag', 'eq', true, 'A'],
  ['flag', 'eq', false, 'BC'],
  ['tint', 'exists', true, 'A'],
  ['tint', 'exists', false, 'BC'],
  ['data', 'exists', true, 'A'],
  ['place', 'near', { latitude: 45.46, longitude: 9.19, radius: 10_000 }, 'A'],
  ['place', 'near', { latitude: 45.46, longitude: 9.19, radius: 10 }, ''],
  ['place', 'exists', false, 'C'],
  // Until uploads exist no record can hold one: upload filters match only the empty side.
  ['cover', 'exists', false, 'ABC'],
  ['cover', 'exists', true, ''],
  ['cover', 'eq', 'upload-1', ''],
  ['cover', 'neq', 'upload-1', 'ABC'],
  ['cover', 'in', ['upload-1'], ''],
  ['cover', 'not_in', ['upload-1'], 'ABC'],
  ['photos', 'eq', ['upload-1'], ''],
  ['photos', 'any_in', ['upload-1'], ''],
  ['photos', 'all_in', ['upload-1'], ''],
  ['photos', 'not_in', ['upload-1'], 'ABC'],
  ['photos', 'exists', false, 'ABC'],
  ['clip', 'exists', false, 'ABC'],
  ['clip', 'exists', true, ''],
  ['search_meta', 'exists', false, 'ABC'],
  ['search_meta', 'exists', true, ''],
  ['story', 'matches', { pattern: 'hello' }, 'A'],
  ['story', 'not_matches', { pattern: 'hello' }, 'BC'],
];

describe('filter[fields] through the official client', () => {
  for (const [field, operator, argument, expected] of CASES) {
    test(`${field} ${operator} ${JSON.stringify(argument)} → ${expected || 'none'}`, async () => {
      assert.equal(await letters({ [field]: { [operator]: argument } }), expected);
    });
  }

  test('link and links operators take record ids', async () => {
    const { A, B } = idOf as { A: string; B: string };
    assert.equal(await letters({ link: { eq: A } }), 'B');
    assert.equal(await letters({ link: { neq: A } }), 'AC');
    assert.equal(await letters({ link: { in: [A, B] } }), 'B');
    assert.equal(await letters({ link: { not_in: [A] } }), 'AC');
    assert.equal(await letters({ link: { exists: true } }), 'B');
    assert.equal(await letters({ links: { eq: [A] } }), 'B');
    assert.equal(await letters({ links: { any_in: [B] } }), 'C');
    assert.equal(await letters({ links: { all_in: [A, B] } }), 'C');
    assert.equal(await letters({ links: { all_in: [A] } }), 'BC');
    assert.equal(await letters({ links: { not_in: [B] } }), 'AB');
    assert.equal(await letters({ links: { exists: false } }), 'A');
  });

  test('meta fields: id, _status, dates, schedules, _is_valid', async () => {
    const { A, B } = idOf as { A: string; B: string };
    assert.equal(await letters({ id: { eq: A } }), 'A');
    assert.equal(await letters({ id: { neq: A } }), 'BC');
    assert.equal(await letters({ id: { in: [A, B] } }), 'AB');
    assert.equal(await letters({ id: { notIn: [A] } }), 'BC');
    assert.equal(await letters({ _status: { eq: 'draft' } }), 'C');
    assert.equal(await letters({ _status: { neq: 'draft' } }), 'AB');
    assert.equal(await letters({ _status: { in: ['published', 'updated'] } }), 'AB');
    assert.equal(await letters({ _status: { notIn: ['published'] } }), 'BC');
    assert.equal(await letters({ _created_at: { gt: '2000-01-01T00:00:00Z' } }), 'ABC');
    assert.equal(await letters({ _created_at: { lt: '2000-01-01T00:00:00Z' } }), '');
    assert.equal(await letters({ _updated_at: { gte: '2999-01-01T00:00:00Z' } }), '');
    assert.equal(await letters({ _published_at: { exists: true } }), 'AB');
    assert.equal(await letters({ _first_published_at: { exists: false } }), 'C');
    assert.equal(await letters({ _publication_scheduled_at: { exists: false } }), 'ABC');
    assert.equal(await letters({ _unpublishing_scheduled_at: { exists: true } }), '');
    assert.equal(await letters({ _is_valid: { eq: true } }), 'ABC');
    assert.equal(await letters({ _is_valid: { eq: false } }), '');
    // Meta fields also combine with filter[ids] (no model needed).
    const records = await client.items.list({
      filter: { ids: `${A},${B}`, fields: { _status: { eq: 'updated' } } },
    });
    assert.deepEqual(
      records.map((record) => record.id),
      [B],
    );
  });

  test('several operators and fields all hold; total_count counts the filtered records', async () => {
    assert.equal(await letters({ views: { gte: 10, lt: 20 } }), 'A');
    assert.equal(await letters({ views: { exists: true }, flag: { eq: false } }), 'B');
    const raw = await client.items.rawList({
      filter: { type: modelId, fields: { views: { exists: true } } },
      page: { limit: 1 },
    } as Parameters<Client['items']['rawList']>[0]);
    assert.equal(raw.data.length, 1);
    assert.equal(raw.meta.total_count, 2);
  });

  test('version=published filters the published values', async () => {
    assert.equal(await letters({ views: { exists: true } }, {}), 'AB');
    const published = await client.items.list({
      filter: { type: modelId, fields: { slug: { eq: 'beta' } } },
      version: 'published',
    } as Parameters<Client['items']['list']>[0]);
    assert.deepEqual(
      published.map((record) => letterOf[record.id]),
      ['B'],
    );
  });

  test('refusals: unknown operator, field, filterless model field, bad argument, bad regexp', async () => {
    const refused = (params: Record<string, unknown>) =>
      rejectsWithApiError(
        client.items.list(params as Parameters<Client['items']['list']>[0]),
        'INVALID_FILTER_FIELDS_PARAM',
      );
    await refused({ filter: { type: modelId, fields: { title: { gt: 'a' } } } });
    await refused({ filter: { type: modelId, fields: { rich: { exists: true } } } });
    await refused({ filter: { type: modelId, fields: { nope: { eq: 'a' } } } });
    await refused({ filter: { fields: { title: { eq: 'a' } } } });
    await refused({ filter: { ids: idOf.A, fields: { title: { eq: 'a' } } } });
    await refused({ filter: { type: modelId, fields: { views: { gt: 'many' } } } });
    await refused({ filter: { type: modelId, fields: { day: { eq: '10/01/2024' } } } });
    await refused({ filter: { type: modelId, fields: { at: { gt: 'yesterday' } } } });
    await refused({ filter: { type: modelId, fields: { flag: { eq: 'yes' } } } });
    await refused({ filter: { type: modelId, fields: { _status: { eq: 'gone' } } } });
    await refused({ filter: { type: modelId, fields: { title: { matches: { pattern: '(' } } } } });
    await refused({ filter: { type: modelId, fields: { title: 'Beta' } } });
    await rejectsWithApiError(
      client.items.list({ filter: { type: modelId, only_valid: 'maybe' } }),
      'INVALID_PARAMS',
    );
  });
});

// Elements are given by index, as an object keyed 0, 1, … (`OR[0][…]`, `OR[1][…]`), or as
// an array, which the client writes as `OR[][…]` and which is read as Rack reads it.
describe('filter[fields] AND / OR combinators', () => {
  test('an array from the client: a key path given again starts the next filter, as in Rack', async () => {
    assert.equal(
      await letters({ OR: [{ title: { eq: 'Beta' } }, { title: { eq: 'Alpha post' } }] }),
      'AB',
    );
    assert.equal(
      await letters({ OR: [{ views: { gt: 15 } }, { slug: { eq: 'gamma' } }] }),
      '',
      'distinct names land in one filter: views > 15 and slug gamma, which no record is',
    );
  });

  test('OR: one of the filters holds; AND: every one, the same field more than once', async () => {
    assert.equal(
      await letters({ OR: { 0: { title: { eq: 'Beta' } }, 1: { views: { lt: 15 } } } }),
      'AB',
    );
    assert.equal(
      await letters({
        AND: {
          0: { title: { matches: { pattern: 'alp' } } },
          1: { title: { matches: { pattern: 'post' } } },
        },
      }),
      'A',
    );
    assert.equal(
      await letters({
        AND: {
          0: { title: { matches: { pattern: 'alp' } } },
          1: { title: { matches: { pattern: 'beta' } } },
        },
      }),
      '',
    );
    assert.equal(await letters({ OR: [{ title: { eq: 'Beta' } }] }), 'B', 'an array of one');
  });

  test('names beside a combinator hold too; combinators nest; meta fields inside', async () => {
    const { A, C } = idOf as { A: string; C: string };
    assert.equal(
      await letters({
        slug: { neq: 'gamma' },
        OR: { 0: { views: { gt: 15 } }, 1: { _status: { eq: 'draft' } } },
      }),
      'B',
    );
    assert.equal(
      await letters({
        OR: {
          0: { AND: { 0: { views: { gte: 10 } }, 1: { flag: { eq: true } } } },
          1: { slug: { eq: 'gamma' } },
        },
      }),
      'AC',
    );
    assert.equal(await letters({ OR: { 0: { id: { eq: A } }, 1: { id: { eq: C } } } }), 'AC');
    assert.equal(
      await letters({ OR: { 0: { views: { exists: false } }, 1: { flag: { eq: true } } } }),
      'AC',
    );
  });

  test('malformed combinators are refused, naming the parameter', async () => {
    const refused = (fields: Record<string, unknown>, message: RegExp) =>
      rejectsWithMessage(
        client.items.list({
          filter: { type: modelId, fields },
        } as Parameters<Client['items']['list']>[0]),
        'INVALID_FILTER_FIELDS_PARAM',
        message,
      );
    await refused({ OR: 'Beta' }, /filter\[fields\]\[OR\] must be a list of filters/);
    await refused({ AND: { title: { eq: 'Beta' } } }, /filter\[fields\]\[AND\] must be a list/);
    await refused({ OR: { 0: 'Beta' } }, /filter\[fields\]\[OR\]\[0\] must be a filter/);
    await refused(
      { OR: { 0: { title: { eq: 'Beta' } }, 1: { nope: { eq: 'x' } } } },
      /filter\[fields\]\[OR\]\[1\] names "nope", which is no field of the model/,
    );
    await refused(
      { OR: { 0: { AND: { 0: { views: { gt: 'many' } } } } } },
      /filter\[fields\]\[OR\]\[0\]\[AND\]\[0\]\[views\]\[gt\] must be a number/,
    );
    await refused(
      { OR: { 0: { title: { matches: { pattern: '(' } } } } },
      /filter\[fields\]\[OR\]\[0\]\[title\]\[matches\]\[pattern\] is not a valid regular expression/,
    );
    await refused({ title: { OR: { 0: { eq: 'Beta' } } } }, /has no operator "OR"/);
  });
});

describe('filter[query] and filter[only_valid]', () => {
  test('every word must appear in a text value, case-insensitively', async () => {
    assert.equal(await letters({}, { query: 'QUICK fox' }), 'A');
    assert.equal(await letters({}, { query: 'quick beta' }), '');
    assert.equal(await letters({}, { query: 'beta' }), 'B');
    assert.equal(await letters({}, { query: 'goodbye' }), 'C', 'structured text is searched');
    assert.equal(await letters({}, { query: '100%' }), '', 'LIKE wildcards are literal');
  });

  test('without filter[type] it searches every model', async () => {
    const other = await buildModel(client);
    await buildField(client, { itemTypeId: other.id, api_key: 'headline' });
    const record = await client.items.create({
      item_type: itemTypeRef(other.id),
      headline: 'A quick note',
    });
    const found = await client.items.list({ filter: { query: 'quick' }, page: { limit: 500 } });
    assert.deepEqual(found.map((item) => item.id).sort(), [idOf.A, record.id].sort());
  });

  test('only_valid and _is_valid read whether records satisfy the schema as it is', async () => {
    assert.equal(await letters({}, { only_valid: 'true' }), 'ABC');
    const model = await buildModel(client);
    const title = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const empty = await client.items.create({ item_type: itemTypeRef(model.id), title: null });
    const filled = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Hi' });
    await client.fields.update(title.id, { validators: { required: {} } });
    const ids = async (filter: Record<string, unknown>) =>
      (
        await client.items.list({
          filter: { type: model.id, ...filter },
        } as Parameters<Client['items']['list']>[0])
      ).map((record) => record.id);
    assert.deepEqual(await ids({ only_valid: 'true' }), [filled.id]);
    assert.deepEqual(await ids({ only_valid: 'false' }), [empty.id, filled.id]);
    assert.deepEqual(await ids({ fields: { _is_valid: { eq: false } } }), [empty.id]);
    assert.deepEqual(await ids({ fields: { _is_valid: { eq: true } } }), [filled.id]);
  });
});

describe('localized fields are filtered in the locale asked for', () => {
  test('locale picks the value compared; the main locale otherwise', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'label', localized: true });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      label: { en: 'red', it: 'rosso' },
    });
    const list = (locale?: string) =>
      client.items.list({
        filter: { type: model.id, fields: { label: { eq: 'rosso' } } },
        ...(locale ? { locale } : {}),
      });
    assert.deepEqual(
      (await list('it')).map((item) => item.id),
      [record.id],
    );
    assert.deepEqual(await list(), []);
  });
});

describe('tree and sortable records', () => {
  test('parent_id and position filters; meta.has_children on tree records only', async () => {
    const tree = await buildModel(client, { tree: true });
    await buildField(client, { itemTypeId: tree.id, api_key: 'name' });
    const root = await client.items.create({ item_type: itemTypeRef(tree.id), name: 'root' });
    assert.equal(root.meta.has_children, false);
    const first = await client.items.create({
      item_type: itemTypeRef(tree.id),
      name: 'first',
      parent_id: root.id,
    });
    const second = await client.items.create({
      item_type: itemTypeRef(tree.id),
      name: 'second',
      parent_id: root.id,
    });
    assert.equal((await client.items.find(root.id)).meta.has_children, true);
    assert.equal((await client.items.find(first.id)).meta.has_children, false);
    const listed = await client.items.list({ filter: { type: tree.id } });
    assert.deepEqual(
      listed.map((record) => [record.id, record.meta.has_children]),
      [
        [root.id, true],
        [first.id, false],
        [second.id, false],
      ],
    );
    const plain = await client.items.find(idOf.A as string);
    assert.equal(plain.meta.has_children, null, 'not a tree record');

    const names = async (fields: Record<string, unknown>) =>
      (
        await client.items.list({
          filter: { type: tree.id, fields },
        } as Parameters<Client['items']['list']>[0])
      )
        .map((record) => record.name)
        .sort()
        .join(',');
    assert.equal(await names({ parent_id: { eq: root.id } }), 'first,second');
    assert.equal(await names({ parent_id: { eq: second.id } }), '');
    assert.equal(await names({ parent_id: { exists: true } }), 'first,second');
    assert.equal(await names({ parent_id: { exists: false } }), 'root');
    assert.equal(await names({ parent_id: { eq: root.id }, position: { eq: 1 } }), 'first');
    assert.equal(await names({ parent_id: { eq: root.id }, position: { neq: 1 } }), 'second');
    assert.equal(await names({ parent_id: { eq: root.id }, position: { gt: 1 } }), 'second');
    assert.equal(await names({ parent_id: { eq: root.id }, position: { lt: 1 } }), '');
    assert.equal(await names({ parent_id: { eq: root.id }, position: { gte: 2 } }), 'second');
    assert.equal(await names({ parent_id: { eq: root.id }, position: { lte: 2 } }), 'first,second');
  });
});
