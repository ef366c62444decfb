import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { rejectsWithMessage } from '../support/api-errors.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  itemTypeRef,
} from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

type ListParams = Parameters<Client['items']['list']>[0];

const idOf: Record<string, string> = {};
const letterOf: Record<string, string> = {};
/** Block ids by name, as the records' blocks were created. */
const blockOf: Record<string, string> = {};
let modelId: string;

before(async () => {
  const product = await buildBlockModel(client, { api_key: 'df_product', withTitle: false });
  await buildField(client, { itemTypeId: product.id, api_key: 'name' });
  await buildField(client, { itemTypeId: product.id, api_key: 'price', field_type: 'integer' });
  const hero = await buildBlockModel(client, { api_key: 'df_hero' });
  const card = await buildBlockModel(client, { api_key: 'df_card' });
  const section = await buildBlockModel(client, { api_key: 'df_section' });
  await buildModularContentField(client, {
    itemTypeId: section.id,
    api_key: 'cards',
    blockIds: [card.id],
    deep_filtering_enabled: true,
  });
  const model = await buildModel(client, { draft_mode_active: true });
  modelId = model.id;
  await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  await buildModularContentField(client, {
    itemTypeId: model.id,
    api_key: 'content',
    blockIds: [product.id, hero.id, section.id],
    deep_filtering_enabled: true,
  });
  await buildModularContentField(client, {
    itemTypeId: model.id,
    api_key: 'plain',
    blockIds: [product.id],
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'feature',
    field_type: 'single_block',
    validators: { single_block_blocks: { item_types: [hero.id] } },
    deep_filtering_enabled: true,
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'body',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [] },
      structured_text_inline_blocks: { item_types: [product.id] },
      structured_text_links: { item_types: [] },
    },
    deep_filtering_enabled: true,
  });
  const productBlock = (name: string, price: number) =>
    blockInRequest({ itemTypeId: product.id, attributes: { name, price } });
  const create = async (letter: string, values: Record<string, unknown>, blocks: string[]) => {
    const record = await client.items.create({ item_type: itemTypeRef(model.id), ...values });
    idOf[letter] = record.id;
    letterOf[record.id] = letter;
    (record.content as string[]).forEach((id, index) => {
      const name = blocks[index];
      if (name) blockOf[name] = id;
    });
  };
  await create(
    'A',
    {
      content: [
        productBlock('T-Shirt', 40),
        blockInRequest({ itemTypeId: hero.id, attributes: { title: 'Big offer' } }),
      ],
      feature: blockInRequest({ itemTypeId: hero.id, attributes: { title: 'Welcome' } }),
      body: {
        schema: 'dast',
        document: {
          type: 'root',
          children: [
            {
              type: 'paragraph',
              children: [
                { type: 'span', value: 'Buy a ' },
                { type: 'inlineBlock', item: productBlock('Mug', 10) },
              ],
            },
          ],
        },
      },
    },
    ['A-shirt', 'A-hero'],
  );
  // A cheap T-Shirt and a dear cap: no one block is both.
  await create(
    'B',
    {
      content: [productBlock('T-Shirt', 20), productBlock('Cap', 99)],
      plain: [productBlock('T-Shirt', 5)],
    },
    ['B-shirt', 'B-cap'],
  );
  await create(
    'C',
    {
      content: [
        productBlock('Hat', 50),
        blockInRequest({
          itemTypeId: section.id,
          attributes: {
            cards: [blockInRequest({ itemTypeId: card.id, attributes: { title: 'Deep' } })],
          },
        }),
      ],
    },
    ['C-hat', 'C-section'],
  );
});

async function letters(fields: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const records = await client.items.list({
    filter: { type: modelId, fields },
    ...extra,
  } as ListParams);
  return records
    .map((record) => letterOf[record.id])
    .sort()
    .join('');
}

/** Asserts the filter is refused with INVALID_FILTER_FIELDS_PARAM for this reason. */
const refused = (fields: Record<string, unknown>, reason: RegExp) =>
  rejectsWithMessage(
    client.items.list({ filter: { type: modelId, fields } } as ListParams),
    'INVALID_FILTER_FIELDS_PARAM',
    reason,
  );

describe('filter[fields] reaches into blocks ([any], deep filtering)', () => {
  test('a block of the model satisfying every condition given for it', async () => {
    assert.equal(
      await letters({ content: { any: { df_product: { name: { eq: 'T-Shirt' } } } } }),
      'AB',
    );
    assert.equal(
      await letters({
        content: { any: { df_product: { name: { eq: 'T-Shirt' }, price: { gt: 30 } } } },
      }),
      'A',
      'both conditions hold in one block, not one in each',
    );
    assert.equal(await letters({ content: { any: { df_product: { price: { gte: 50 } } } } }), 'BC');
    assert.equal(
      await letters({
        content: { any: { df_hero: { title: { matches: { pattern: 'OFFER' } } } } },
      }),
      'A',
    );
    assert.equal(
      await letters({ content: { any: { df_product: { name: { exists: false } } } } }),
      '',
    );
    assert.equal(
      await letters({ content: { any: { df_product: { id: { eq: blockOf['C-hat'] } } } } }),
      'C',
    );
    assert.equal(
      await letters({
        content: { any: { df_product: { id: { in: [blockOf['A-shirt'], blockOf['B-cap']] } } } },
      }),
      'AB',
    );
  });

  test('conditions on several block models must all hold; other filters combine', async () => {
    assert.equal(
      await letters({
        content: {
          any: {
            df_product: { name: { eq: 'T-Shirt' } },
            df_hero: { title: { matches: { pattern: 'offer' } } },
          },
        },
      }),
      'A',
    );
    assert.equal(
      await letters({
        content: { any: { df_product: { name: { eq: 'T-Shirt' } } } },
        id: { neq: idOf.A },
      }),
      'B',
    );
  });

  test('single block, structured text (inline blocks) and blocks in blocks', async () => {
    assert.equal(
      await letters({ feature: { any: { df_hero: { title: { eq: 'Welcome' } } } } }),
      'A',
    );
    assert.equal(await letters({ body: { any: { df_product: { name: { eq: 'Mug' } } } } }), 'A');
    assert.equal(
      await letters({
        body: { matches: { pattern: 'buy' }, any: { df_product: { price: { lt: 20 } } } },
      }),
      'A',
    );
    assert.equal(
      await letters({
        content: {
          any: { df_section: { cards: { any: { df_card: { title: { eq: 'Deep' } } } } } },
        },
      }),
      'C',
    );
    assert.equal(
      await letters({
        content: {
          any: { df_section: { cards: { any: { df_card: { title: { eq: 'Shallow' } } } } } },
        },
      }),
      '',
    );
  });

  // Lists are given by index (an object keyed 0, 1, …): see items-filters.test.ts.
  test('AND / OR: among block models under any, within a block, around deep filters', async () => {
    assert.equal(
      await letters({
        content: {
          any: {
            OR: {
              0: { df_product: { name: { eq: 'Cap' } } },
              1: { df_hero: { title: { matches: { pattern: 'offer' } } } },
            },
          },
        },
      }),
      'AB',
    );
    assert.equal(
      await letters({
        content: {
          any: { df_product: { OR: { 0: { name: { eq: 'Hat' } }, 1: { price: { gt: 90 } } } } },
        },
      }),
      'BC',
    );
    assert.equal(
      await letters({
        content: {
          any: {
            df_product: {
              name: { eq: 'T-Shirt' },
              OR: { 0: { price: { lt: 30 } }, 1: { price: { gt: 90 } } },
            },
          },
        },
      }),
      'B',
      'the block named T-Shirt must itself satisfy the OR',
    );
    assert.equal(
      await letters({
        content: {
          any: {
            df_product: {
              AND: {
                0: { name: { matches: { pattern: '^t-' } } },
                1: { name: { matches: { pattern: 'shirt$' } } },
              },
            },
          },
        },
      }),
      'AB',
    );
    assert.equal(
      await letters({
        OR: {
          0: { content: { any: { df_product: { name: { eq: 'Hat' } } } } },
          1: { feature: { any: { df_hero: { title: { eq: 'Welcome' } } } } },
        },
      }),
      'AC',
    );
    await refused(
      { content: { any: { OR: { 0: { df_card: { title: { eq: 'Deep' } } } } } } },
      /\[any\]\[OR\]\[0\] names "df_card", which is no block model the field accepts/,
    );
    await refused(
      { content: { any: { df_product: { OR: 'Hat' } } } },
      /\[any\]\[df_product\]\[OR\] must be a list of filters/,
    );
    await refused(
      { content: { any: { df_product: { OR: { 0: { color: { eq: 'red' } } } } } } },
      /\[df_product\]\[OR\]\[0\] names "color", which is no field of block model/,
    );
  });

  test('version=published reads the blocks as published', async () => {
    await client.items.publish(idOf.A as string);
    await client.items.publish(idOf.C as string);
    await client.items.update(idOf.A as string, {
      content: [blockInRequest({ id: blockOf['A-shirt'], attributes: { name: 'Sweater' } })],
    });
    const shirts = { content: { any: { df_product: { name: { eq: 'T-Shirt' } } } } };
    assert.equal(await letters(shirts), 'B');
    assert.equal(await letters(shirts, { version: 'published' }), 'A');
    assert.equal(
      await letters(
        {
          content: {
            any: { df_section: { cards: { any: { df_card: { title: { eq: 'Deep' } } } } } },
          },
        },
        { version: 'published' },
      ),
      'C',
    );
    assert.equal(
      await letters(
        { body: { any: { df_product: { name: { eq: 'Mug' } } } } },
        { version: 'published' },
      ),
      'A',
    );
    const shirtOrHat = {
      content: {
        any: { df_product: { OR: { 0: { name: { eq: 'T-Shirt' } }, 1: { name: { eq: 'Hat' } } } } },
      },
    };
    assert.equal(await letters(shirtOrHat), 'BC');
    assert.equal(await letters(shirtOrHat, { version: 'published' }), 'AC');
  });

  test('a localized field is read in the locale asked for, the main locale otherwise', async () => {
    const [main] = (await client.site.find()).locales;
    assert.ok(main);
    const other = main === 'it' ? 'de' : 'it';
    await client.site.update({ locales: [main, other] });
    const product = await buildBlockModel(client);
    const model = await buildModel(client);
    await buildModularContentField(client, {
      itemTypeId: model.id,
      api_key: 'content',
      blockIds: [product.id],
      localized: true,
      deep_filtering_enabled: true,
    });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      content: {
        [main]: [blockInRequest({ itemTypeId: product.id, attributes: { title: 'Shirt' } })],
        [other]: [blockInRequest({ itemTypeId: product.id, attributes: { title: 'Maglia' } })],
      },
    } as never);
    const found = async (title: string, locale?: string) =>
      (
        await client.items.list({
          filter: {
            type: model.id,
            fields: { content: { any: { [product.api_key]: { title: { eq: title } } } } },
          },
          ...(locale ? { locale } : {}),
        } as ListParams)
      ).map((item) => item.id);
    assert.deepEqual(await found('Maglia', other), [record.id]);
    assert.deepEqual(await found('Maglia'), []);
    assert.deepEqual(await found('Shirt'), [record.id]);
    await client.site.update({ locales: [main] });
  });

  test('refusals name the reason: deep filtering off, block model not accepted, bad shapes', async () => {
    await refused(
      { plain: { any: { df_product: { name: { eq: 'T-Shirt' } } } } },
      /filter\[fields\]\[plain\]\[any\]: deep filtering is not enabled/,
    );
    await refused(
      { content: { any: { df_card: { title: { eq: 'Deep' } } } } },
      /"df_card", which is no block model the field accepts \(df_product, df_hero, df_section\)/,
    );
    await refused(
      { content: { any: { nope: { title: { eq: 'x' } } } } },
      /"nope", which is no block model/,
    );
    await refused(
      { content: { any: { df_product: { color: { eq: 'red' } } } } },
      /"color", which is no field of block model "df_product"/,
    );
    await refused(
      { content: { any: { df_product: { _status: { eq: 'draft' } } } } },
      /"_status", which is no field of block model/,
    );
    await refused(
      { content: { any: { df_product: { price: { matches: { pattern: 'x' } } } } } },
      /\[any\]\[df_product\]\[price\] has no operator "matches"/,
    );
    await refused({ content: { any: { df_product: 'T-Shirt' } } }, /must name fields of the block/);
    await refused({ content: { any: 'df_product' } }, /must name block models/);
    await refused(
      { content: { any: { df_hero: { title: { matches: { pattern: '(' } } } } } },
      /\[df_hero\]\[title\]\[matches\]\[pattern\] is not a valid regular expression/,
    );
    await refused(
      { title: { any: { df_product: { name: { eq: 'x' } } } } },
      /has no operator "any"/,
    );
  });
});
