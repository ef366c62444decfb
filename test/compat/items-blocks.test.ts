import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadScope } from '../../src/db/environment-scope.ts';
import { rejectsWithApiError } from '../support/api-errors.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  buildRecord,
  itemTypeRef,
} from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

type Values = Record<string, unknown>;
type NestedBlock = { id: string; type: string; attributes: Values; relationships: Values };

/** Block rows stored for a record (the primary environment's `blocks` table). */
async function storedBlocks(itemId: string): Promise<string[]> {
  const rows = await (await loadScope(server.db)).db
    .selectFrom('blocks')
    .select('id')
    .where('item_id', '=', itemId)
    .execute();
  return rows.map((row) => row.id).sort();
}

/** A model with a `sections` modular content field allowing `block` (and a title). */
async function pageModel(extra: Values = {}) {
  const block = await buildBlockModel(client);
  const model = await buildModel(client);
  await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  await buildModularContentField(client, {
    itemTypeId: model.id,
    api_key: 'sections',
    blockIds: [block.id],
    ...extra,
  });
  return { block, model };
}

/** Two block models, `outer` holding `inner` blocks in its `items` modular content field. */
async function blocksInBlocks() {
  const inner = await buildBlockModel(client);
  const outer = await buildBlockModel(client);
  await buildModularContentField(client, {
    itemTypeId: outer.id,
    api_key: 'items',
    blockIds: [inner.id],
  });
  return { inner, outer };
}

type DastNode = { type: string; item?: unknown; children?: DastNode[] };

/** The node at these child indexes of a structured text value's document. */
function dastNode(value: unknown, ...path: number[]): DastNode {
  let node = (value as { document: DastNode }).document;
  for (const index of path) {
    const next = node.children?.[index];
    assert.ok(next, `no node at ${path.join('.')}`);
    node = next;
  }
  return node;
}

function paragraph(text: string) {
  return { type: 'paragraph', children: [{ type: 'span', value: text }] };
}

describe('blocks in records', () => {
  test('rich_text: created inline, ids by default, whole with nested=true, not listed', async () => {
    const { block, model } = await pageModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'Page',
      sections: [
        blockInRequest({ itemTypeId: block.id, attributes: { title: 'One' } }),
        blockInRequest({ itemTypeId: block.id, attributes: { title: 'Two' } }),
      ],
    });
    const ids = record.sections as string[];
    assert.equal(ids.length, 2);
    assert.ok(ids.every((id) => typeof id === 'string' && id.length === 22));
    assert.deepEqual(await storedBlocks(record.id), [...ids].sort());

    const found = await client.items.find(record.id);
    assert.deepEqual(found.sections, ids);
    const nested = await client.items.rawFind(record.id, { nested: true });
    const blocks = nested.data.attributes.sections as NestedBlock[];
    assert.deepEqual(
      blocks.map((b) => [b.id, b.type, b.attributes.title]),
      [
        [ids[0], 'item', 'One'],
        [ids[1], 'item', 'Two'],
      ],
    );
    assert.deepEqual(blocks[0]?.relationships.item_type, { data: itemTypeRef(block.id) });
    const meta = (blocks[0] as unknown as { meta: Values }).meta;
    assert.equal(meta.current_version, record.meta.current_version, 'saved with its record');
    assert.equal(typeof meta.created_at, 'string');

    const listed = await client.items.list({ filter: { type: model.id }, nested: true });
    assert.equal(listed.length, 1);
    const listedBlocks = listed[0]?.sections as unknown as NestedBlock[];
    assert.equal(listedBlocks[1]?.attributes.title, 'Two');
    const all = await client.items.list({ filter: { ids: ids.join(',') } });
    assert.equal(all.length, 0, 'blocks are not records: lists never hold them');
  });

  test('single_block and structured_text (block and inlineBlock nodes)', async () => {
    const block = await buildBlockModel(client);
    const model = await buildModel(client);
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'hero',
      field_type: 'single_block',
      validators: { single_block_blocks: { item_types: [block.id] } },
    });
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'body',
      field_type: 'structured_text',
      validators: {
        structured_text_blocks: { item_types: [block.id] },
        structured_text_inline_blocks: { item_types: [block.id] },
        structured_text_links: { item_types: [] },
      },
    });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      hero: blockInRequest({ itemTypeId: block.id, attributes: { title: 'Hero' } }),
      body: {
        schema: 'dast',
        document: {
          type: 'root',
          children: [
            paragraph('before'),
            {
              type: 'block',
              item: blockInRequest({ itemTypeId: block.id, attributes: { title: 'Block' } }),
            },
            {
              type: 'paragraph',
              children: [
                {
                  type: 'inlineBlock',
                  item: blockInRequest({ itemTypeId: block.id, attributes: { title: 'Inline' } }),
                },
              ],
            },
          ],
        },
      },
    } as never);
    const hero = record.hero as string;
    assert.equal(typeof hero, 'string');
    const blockId = dastNode(record.body, 1).item as string;
    const inline = dastNode(record.body, 2, 0).item as string;
    assert.equal(typeof blockId, 'string');
    assert.equal(typeof inline, 'string');
    assert.deepEqual(await storedBlocks(record.id), [hero, blockId, inline].sort());

    const nested = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
    assert.equal((nested.hero as NestedBlock).attributes.title, 'Hero');
    assert.equal((dastNode(nested.body, 1).item as NestedBlock).attributes.title, 'Block');
    assert.equal((dastNode(nested.body, 2, 0).item as NestedBlock).attributes.title, 'Inline');

    // Dropping the inline block from the document deletes it; the others are kept by id.
    await client.items.update(record.id, {
      body: {
        schema: 'dast',
        document: { type: 'root', children: [{ type: 'block', item: blockId }] },
      },
    } as never);
    assert.deepEqual(await storedBlocks(record.id), [hero, blockId].sort());
    await client.items.update(record.id, { hero: null });
    assert.deepEqual(await storedBlocks(record.id), [blockId]);
  });

  test('update in place by id, keep by id, remove, add', async () => {
    const { block, model } = await pageModel();
    await buildField(client, { itemTypeId: block.id, api_key: 'note' });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: ['A', 'B', 'C'].map((title) =>
        blockInRequest({ itemTypeId: block.id, attributes: { title, note: `note ${title}` } }),
      ),
    });
    const [a, b, c] = record.sections as string[];
    assert.ok(a && b && c);
    const updated = await client.items.update(record.id, {
      sections: [
        blockInRequest({ id: b, attributes: { title: 'B2' } }),
        a,
        blockInRequest({ itemTypeId: block.id, attributes: { title: 'D' } }),
      ],
    });
    const ids = updated.sections as string[];
    assert.equal(ids[0], b, 'an updated block keeps its id');
    assert.equal(ids[1], a);
    assert.ok(ids[2] && ![a, b, c].includes(ids[2]), 'a new block gets a new id');
    assert.deepEqual(await storedBlocks(record.id), [...ids].sort(), 'C is deleted');

    const nested = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
    assert.deepEqual(
      (nested.sections as NestedBlock[]).map((x) => [x.attributes.title, x.attributes.note]),
      [
        ['B2', 'note B'],
        ['A', 'note A'],
        ['D', null],
      ],
      'an updated block keeps the attributes it does not send',
    );

    // Omitting the field keeps the blocks; an empty list removes them all.
    await client.items.update(record.id, { title: 'x' } as never);
    assert.equal((await storedBlocks(record.id)).length, 3);
    await client.items.update(record.id, { sections: [] });
    assert.deepEqual(await storedBlocks(record.id), []);
  });

  test('blocks in blocks, nested=true recursively', async () => {
    const { inner, outer } = await blocksInBlocks();
    const model = await buildModel(client);
    await buildModularContentField(client, {
      itemTypeId: model.id,
      api_key: 'sections',
      blockIds: [outer.id],
    });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [
        blockInRequest({
          itemTypeId: outer.id,
          attributes: {
            title: 'Outer',
            items: [blockInRequest({ itemTypeId: inner.id, attributes: { title: 'Inner' } })],
          },
        }),
      ],
    });
    assert.equal((await storedBlocks(record.id)).length, 2);
    const nested = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
    const [outerBlock] = nested.sections as NestedBlock[];
    assert.ok(outerBlock);
    assert.equal(outerBlock.attributes.title, 'Outer');
    const innerBlock = (outerBlock.attributes.items as NestedBlock[])[0];
    assert.equal(innerBlock?.attributes.title, 'Inner');

    // Removing the outer block removes the block inside it too.
    await client.items.update(record.id, { sections: [] });
    assert.deepEqual(await storedBlocks(record.id), []);
  });

  test('invalid block values are refused naming the path; nothing is stored', async () => {
    const { block, model } = await pageModel();
    await buildField(client, {
      itemTypeId: block.id,
      api_key: 'code',
      validators: { required: {} },
    });
    // Like DatoCMS, a block model's field cannot be unique (blocks have no model-wide scope).
    await rejectsWithApiError(
      buildField(client, { itemTypeId: block.id, validators: { unique: {} } }),
      'INVALID_FIELD',
      { field: 'validators' },
    );
    const create = (sections: unknown[]) =>
      client.items.create({ item_type: itemTypeRef(model.id), sections } as never);
    await rejectsWithApiError(
      create([
        blockInRequest({ itemTypeId: block.id, attributes: { code: 'ok' } }),
        blockInRequest({ itemTypeId: block.id, attributes: { title: 7 } }),
      ]),
      'INVALID_FIELD',
      { field: 'sections.1.title', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      create([blockInRequest({ itemTypeId: block.id, attributes: { title: 'no code' } })]),
      'INVALID_FIELD',
      { field: 'sections.0.code', code: 'VALIDATION_REQUIRED' },
    );
    await rejectsWithApiError(
      create([blockInRequest({ itemTypeId: block.id, attributes: { nope: 1, code: 'x' } })]),
      'INVALID_FIELD',
      { field: 'sections.0.nope' },
    );
    await create([blockInRequest({ itemTypeId: block.id, attributes: { code: 'stored' } })]);
    const records = await client.items.list({ filter: { type: model.id } });
    assert.equal(records.length, 1, 'the refused writes stored nothing');
    assert.equal((await storedBlocks(records[0]?.id ?? '')).length, 1);
  });

  test('a block model the field does not allow, or a block of another record, is refused', async () => {
    const { model } = await pageModel();
    const other = await buildBlockModel(client);
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        sections: [blockInRequest({ itemTypeId: other.id, attributes: { title: 'x' } })],
      }),
      'INVALID_FIELD',
      { field: 'sections', code: 'VALIDATION_RICH_TEXT_BLOCKS' },
    );
    const plain = await buildModel(client);
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        sections: [blockInRequest({ itemTypeId: plain.id, attributes: { title: 'x' } })],
      }),
      'INVALID_FIELD',
      { field: 'sections.0' },
    );
    const { block, model: second } = await pageModel();
    const owner = await client.items.create({
      item_type: itemTypeRef(second.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'mine' } })],
    });
    const stolen = (owner.sections as string[])[0] ?? '';
    await rejectsWithApiError(
      client.items.create({ item_type: itemTypeRef(second.id), sections: [stolen] }),
      'INVALID_FIELD',
      { field: 'sections.0' },
    );
    await rejectsWithApiError(
      client.items.update(owner.id, { sections: [stolen, stolen] }),
      'INVALID_FIELD',
      { field: 'sections.1' },
    );
  });

  test('localized block fields hold blocks per locale', async () => {
    const { block, model } = await pageModel({ localized: true });
    const [main] = (await client.site.find()).locales;
    assert.ok(main);
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        sections: { [main]: [blockInRequest({ itemTypeId: block.id, attributes: { title: 7 } })] },
      } as never),
      'INVALID_FIELD',
      { field: `sections.${main}.0.title` },
    );
    const created = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: { [main]: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'M' } })] },
    } as never);
    const ids = (created.sections as Record<string, string[]>)[main] ?? [];
    assert.equal(ids.length, 1);
    const nested = (await client.items.rawFind(created.id, { nested: true })).data.attributes;
    const blocks = (nested.sections as Record<string, NestedBlock[]>)[main] ?? [];
    assert.equal(blocks[0]?.attributes.title, 'M');

    // Unlocalizing keeps the main locale's blocks and deletes the other locales'.
    const other = main === 'it' ? 'de' : 'it';
    await client.site.update({ locales: [main, other] });
    const both = await client.items.update(created.id, {
      sections: {
        [main]: ids,
        [other]: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'O' } })],
      },
    } as never);
    assert.equal((await storedBlocks(created.id)).length, 2);
    const sections = (await client.fields.list(model.id)).find((f) => f.api_key === 'sections');
    assert.ok(sections);
    await client.fields.update(sections.id, { localized: false });
    assert.deepEqual(await storedBlocks(created.id), ids);
    assert.deepEqual((await client.items.find(both.id)).sections, ids);
    await client.site.update({ locales: [main] });
  });

  test('removing a site locale deletes the blocks only that locale held, in the change', async () => {
    const { inner, outer } = await blocksInBlocks();
    const model = await buildModel(client, { draft_mode_active: true });
    await buildModularContentField(client, {
      itemTypeId: model.id,
      api_key: 'sections',
      blockIds: [outer.id],
      localized: true,
    });
    const [main] = (await client.site.find()).locales;
    assert.ok(main);
    const other = main === 'it' ? 'de' : 'it';
    await client.site.update({ locales: [main, other] });
    const section = (title: string) =>
      blockInRequest({
        itemTypeId: outer.id,
        attributes: {
          title,
          items: [blockInRequest({ itemTypeId: inner.id, attributes: { title: `${title} in` } })],
        },
      });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: { [main]: [section('M')], [other]: [section('O')] },
    } as never);
    await client.items.publish(record.id);
    const kept = (await storedBlocks(record.id)).length;
    assert.equal(kept, 4, 'two blocks per locale, one inside the other');
    const [mainSection] = (record.sections as Record<string, string[]>)[main] ?? [];

    await client.site.update({ locales: [main] });
    const left = await storedBlocks(record.id);
    assert.equal(left.length, 2, 'the other locale’s block and the block inside it are gone');
    assert.ok(mainSection && left.includes(mainSection));

    // The record reads, publishes and duplicates as if it had been saved in one locale.
    const found = await client.items.rawFind(record.id, { nested: true });
    const sections = found.data.attributes.sections as Record<string, NestedBlock[]>;
    assert.deepEqual(Object.keys(sections), [main]);
    const [only] = sections[main] ?? [];
    assert.ok(only);
    assert.equal((only.attributes.items as NestedBlock[])[0]?.attributes.title, 'M in');
    const published = await client.items.rawFind(record.id, { version: 'published' });
    assert.deepEqual(Object.keys(published.data.attributes.sections as Values), [main]);
    await client.items.publish(record.id);
    const copy = await client.items.duplicate(record.id);
    assert.equal((await storedBlocks(copy.id)).length, 2);
    assert.equal((await storedBlocks(record.id)).length, 2);
  });

  test('destroying the record removes its blocks; a fork copies them', async () => {
    const { block, model } = await pageModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'Kept' } })],
    });
    const environment = `blocks-fork-${Date.now().toString(36)}`;
    await client.environments.fork('main', { id: environment });
    const forked = server.client({ environment });
    const copy = await forked.items.rawFind(record.id, { nested: true });
    const blocks = copy.data.attributes.sections as NestedBlock[];
    assert.equal(blocks[0]?.attributes.title, 'Kept');
    assert.equal(blocks[0]?.id, (record.sections as string[])[0]);
    // The fork's blocks are its own: updating one there leaves the primary's as it was.
    await forked.items.update(record.id, {
      sections: [blockInRequest({ id: blocks[0]?.id, attributes: { title: 'Fork' } })],
    });
    const primary = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
    assert.equal((primary.sections as NestedBlock[])[0]?.attributes.title, 'Kept');
    await client.environments.destroy(environment);

    await client.items.destroy(record.id);
    assert.deepEqual(await storedBlocks(record.id), []);
  });

  test('versions hold their blocks; restoring one never names a deleted block', async () => {
    const { block, model } = await pageModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'v1' } })],
    });
    const [first] = record.sections as string[];
    const firstVersion = record.meta.current_version;
    await client.items.update(record.id, {
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'v2' } })],
    });
    assert.equal((await storedBlocks(record.id)).includes(first ?? ''), false);
    const versions = await client.itemVersions.list(record.id);
    const oldest = versions.find((version) => version.id === firstVersion);
    assert.deepEqual(oldest?.sections, [first], 'a version presents its blocks by id');

    const [restored] = await client.itemVersions.restore(firstVersion);
    const ids = restored.sections as string[];
    assert.equal(ids.length, 1);
    assert.deepEqual(await storedBlocks(record.id), ids, 'the restored block exists');
    const nested = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
    assert.equal((nested.sections as NestedBlock[])[0]?.attributes.title, 'v1');
  });

  test('published values keep the blocks as published', async () => {
    const { block, model } = await pageModel();
    await client.itemTypes.update(model.id, { draft_mode_active: true });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'Live' } })],
    });
    await client.items.publish(record.id);
    // A schema change recomputes validity: published values holding blocks stay valid.
    await buildField(client, { itemTypeId: model.id, validators: { length: { max: 9 } } });
    const refreshed = await client.items.find(record.id);
    assert.equal(refreshed.meta.is_published_version_valid, true);
    assert.equal(refreshed.meta.is_valid, true);
    const [id] = record.sections as string[];
    await client.items.update(record.id, {
      sections: [blockInRequest({ id, attributes: { title: 'Draft' } })],
    });
    const published = await client.items.rawFind(record.id, { version: 'published', nested: true });
    assert.equal(
      (published.data.attributes.sections as NestedBlock[])[0]?.attributes.title,
      'Live',
    );
    const byId = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(byId.sections, [id]);
    await client.items.update(record.id, { sections: [] });
    const stillPublished = await client.items.rawFind(record.id, {
      version: 'published',
      nested: true,
    });
    assert.equal(
      (stillPublished.data.attributes.sections as NestedBlock[])[0]?.attributes.title,
      'Live',
      'removing a draft block leaves the published values whole',
    );
  });

  test('schema changes reach blocks', async () => {
    const { block, model } = await pageModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'T' } })],
    });
    await buildField(client, { itemTypeId: block.id, api_key: 'tag', default_value: 'new' });
    const nested = (await client.items.rawFind(record.id, { nested: true })).data.attributes;
    assert.equal((nested.sections as NestedBlock[])[0]?.attributes.tag, 'new');

    const fields = await client.fields.list(model.id);
    const sections = fields.find((field) => field.api_key === 'sections');
    assert.ok(sections);
    await client.fields.destroy(sections.id);
    assert.deepEqual(await storedBlocks(record.id), [], 'the field took its blocks with it');
  });

  test('destroying a block model deletes its blocks and the values stop naming them', async () => {
    const { block, model } = await pageModel();
    const kept = await buildBlockModel(client);
    const fields = await client.fields.list(model.id);
    const sections = fields.find((field) => field.api_key === 'sections');
    assert.ok(sections);
    await client.fields.update(sections.id, {
      validators: { rich_text_blocks: { item_types: [block.id, kept.id] } },
    });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [
        blockInRequest({ itemTypeId: block.id, attributes: { title: 'goes' } }),
        blockInRequest({ itemTypeId: kept.id, attributes: { title: 'stays' } }),
      ],
    });
    const [, staying] = record.sections as string[];
    // A block model still allowed by a field cannot go; once no field allows it, it can.
    await rejectsWithApiError(client.itemTypes.destroy(block.id), 'MODULAR_BLOCK_IN_USE');
    await client.fields.update(sections.id, {
      validators: { rich_text_blocks: { item_types: [kept.id] } },
    });
    await client.itemTypes.destroy(block.id);
    assert.deepEqual(await storedBlocks(record.id), [staying]);
    const found = await client.items.find(record.id);
    assert.deepEqual(found.sections, [staying]);
    await client.items.update(record.id, { title: 'still writable' });
  });

  test('a link inside a block is checked, and makes the record reference its target', async () => {
    const { block, model } = await pageModel();
    const target = await buildRecord(client);
    await buildField(client, {
      itemTypeId: block.id,
      api_key: 'link',
      field_type: 'link',
      validators: { item_item_type: { item_types: [target.item_type.id] } },
    });
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        sections: [blockInRequest({ itemTypeId: block.id, attributes: { link: model.id } })],
      }),
      'INVALID_FIELD',
      { field: 'sections.0.link', code: 'VALIDATION_ITEM_ITEM_TYPE' },
    );
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { link: target.id } })],
    });
    const references = await client.items.references(target.id);
    assert.deepEqual(
      references.map((reference) => reference.id),
      [record.id],
    );
  });
});
