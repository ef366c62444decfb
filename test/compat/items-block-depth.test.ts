import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadScope } from '../../src/db/environment-scope.ts';
import { MAX_NESTING_DEPTH } from '../../src/domain/limits.ts';
import { apiError } from '../support/api-errors.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  itemTypeRef,
} from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// Blocks nest at most MAX_NESTING_DEPTH levels (structured text nodes above a block count
// too): deeper content is refused with a 422 that changes nothing, and content stored
// deeper before the limit existed is read down to it, never walked further.

const server = useTestServer();
const client = server.client();

type Values = Record<string, unknown>;

/** A block model `node` holding itself in `inner`, and a draft-mode model holding it in `sections`. */
async function selfNestingSchema() {
  const node = await buildBlockModel(client);
  const inner = await buildModularContentField(client, {
    itemTypeId: node.id,
    api_key: 'inner',
    blockIds: [node.id],
  });
  const model = await buildModel(client, { draft_mode_active: true });
  await buildModularContentField(client, {
    itemTypeId: model.id,
    api_key: 'sections',
    blockIds: [node.id],
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'body',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [node.id] },
      structured_text_inline_blocks: { item_types: [node.id] },
      structured_text_links: { item_types: [] },
    },
  });
  const titleField = (await client.fields.list(node.id)).find((f) => f.api_key === 'title');
  assert.ok(titleField);
  return { node, model, innerFieldId: inner.id, titleFieldId: titleField.id };
}

/** `levels` new blocks, each in the `inner` of the one above; `innermost` in the last. */
function chain(nodeId: string, levels: number, innermost: unknown[] = []): unknown[] {
  let value: unknown[] = innermost;
  for (let level = levels; level >= 1; level--)
    value = [
      blockInRequest({ itemTypeId: nodeId, attributes: { title: `L${level}`, inner: value } }),
    ];
  return value;
}

/** The same chain as request JSON, built as text: too deep for JSON.stringify's stack. */
function chainJson(nodeId: string, levels: number): string {
  const open = `[{"type":"item","attributes":{"title":"x","inner":`;
  const close = `},"relationships":{"item_type":{"data":{"type":"item_type","id":"${nodeId}"}}}}]`;
  return `${open.repeat(levels)}[]${close.repeat(levels)}`;
}

async function storedCounts(modelId: string) {
  const { db } = await loadScope(server.db);
  const [items, blocks] = await Promise.all([
    db.selectFrom('items').select('id').where('item_type_id', '=', modelId).execute(),
    db.selectFrom('blocks').select('id').execute(),
  ]);
  return { items: items.length, blocks: blocks.length };
}

/** How many levels of blocks a `?nested=true` value presents whole. */
function nestedLevels(sections: unknown): number {
  let levels = 0;
  let value = sections;
  while (Array.isArray(value) && typeof value[0] === 'object' && value[0] !== null) {
    levels += 1;
    value = (value[0] as { attributes: Values }).attributes.inner;
  }
  return levels;
}

function assertTooDeep(error: unknown, field: string): void {
  const found = apiError(error).findError('INVALID_FIELD', { field });
  assert.ok(found, JSON.stringify(apiError(error).errors).slice(0, 600));
  assert.equal(found.attributes.details.code, 'VALIDATION_INVALID');
  assert.match(String(found.attributes.details.message), /nest deeper than 64 levels/);
}

/** `sections.0.inner.0…` down to the block at `level`. */
function pathTo(level: number): string {
  return ['sections', '0', ...Array.from({ length: level - 1 }, () => ['inner', '0']).flat()].join(
    '.',
  );
}

describe('nesting depth of blocks', () => {
  test(`${MAX_NESTING_DEPTH} levels of blocks are accepted; one more is a 422 that writes nothing`, async () => {
    const { node, model } = await selfNestingSchema();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: chain(node.id, MAX_NESTING_DEPTH),
    } as never);
    const nested = await client.items.rawFind(record.id, { nested: true });
    assert.equal(nestedLevels(nested.data.attributes.sections), MAX_NESTING_DEPTH);

    const before = await storedCounts(model.id);
    await assert.rejects(
      client.items.create({
        item_type: itemTypeRef(model.id),
        sections: chain(node.id, MAX_NESTING_DEPTH + 1),
      } as never),
      (error) => {
        assertTooDeep(error, pathTo(MAX_NESTING_DEPTH + 1));
        return true;
      },
    );
    assert.deepEqual(await storedCounts(model.id), before);
  });

  test('3,000 levels (a 500 KB body) are a 422, not a 500, and the server answers on', async () => {
    const { node, model } = await selfNestingSchema();
    const before = await storedCounts(model.id);
    const body = `{"data":{"type":"item","attributes":{"sections":${chainJson(node.id, 3000)}},"relationships":{"item_type":{"data":{"type":"item_type","id":"${model.id}"}}}}}`;
    const created = await server.request('POST', '/items', body);
    assert.equal(created.status, 422, JSON.stringify(created.body).slice(0, 400));
    const validated = await server.request('POST', '/items/validate', body);
    assert.equal(validated.status, 422, JSON.stringify(validated.body).slice(0, 400));
    assert.deepEqual(await storedCounts(model.id), before);
    assert.equal((await server.request('GET', '/healthz')).status, 200);
  });

  test('structured text node levels above a block count toward the same limit', async () => {
    const { node, model } = await selfNestingSchema();
    // root > list > listItem > paragraph > inlineBlock: the block sits at level 4.
    const body = (inline: unknown) => ({
      schema: 'dast',
      document: {
        type: 'root',
        children: [
          {
            type: 'list',
            style: 'bulleted',
            children: [
              {
                type: 'listItem',
                children: [
                  { type: 'paragraph', children: [{ type: 'inlineBlock', item: inline }] },
                ],
              },
            ],
          },
        ],
      },
    });
    const [fits] = chain(node.id, MAX_NESTING_DEPTH - 3);
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      body: body(fits),
    } as never);
    assert.equal(typeof record.id, 'string');
    const before = await storedCounts(model.id);
    const [deeper] = chain(node.id, MAX_NESTING_DEPTH - 2);
    await assert.rejects(
      client.items.create({ item_type: itemTypeRef(model.id), body: body(deeper) } as never),
      (error) => {
        const found = apiError(error).errors.find((entry) =>
          String(entry.attributes.details.field).startsWith('body.0.'),
        );
        assert.ok(found, JSON.stringify(apiError(error).errors).slice(0, 600));
        assert.match(String(found.attributes.details.message), /nest deeper than 64 levels/);
        return true;
      },
    );
    assert.deepEqual(await storedCounts(model.id), before);
  });

  test('an update moving stored blocks deeper (by id) is refused when they would pass the limit', async () => {
    const { node, model } = await selfNestingSchema();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: chain(node.id, MAX_NESTING_DEPTH - 2),
    } as never);
    const top = (record.sections as string[])[0] as string;
    // Two new levels above it fill the limit exactly; three pass it.
    const moved = await client.items.update(record.id, {
      sections: chain(node.id, 2, [top]),
    } as never);
    const wrapper = (moved.sections as string[])[0] as string;
    const before = await storedCounts(model.id);
    await assert.rejects(
      client.items.update(record.id, { sections: chain(node.id, 1, [wrapper]) } as never),
      (error) => {
        assertTooDeep(error, pathTo(2));
        return true;
      },
    );
    assert.deepEqual(await storedCounts(model.id), before);
    const nested = await client.items.rawFind(record.id, { nested: true });
    assert.equal(nestedLevels(nested.data.attributes.sections), MAX_NESTING_DEPTH);
  });

  test('blocks stored deeper before the limit existed are read down to it: nested reads, publishing and the current-vs-published state answer', async () => {
    const { node, model, innerFieldId, titleFieldId } = await selfNestingSchema();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: chain(node.id, 1),
    } as never);
    const top = (record.sections as string[])[0] as string;
    // 5,000 more levels under the top block, written as an older server let them in.
    const ids = Array.from(
      { length: 5000 },
      (_, index) => `legacyblock${String(index).padStart(11, '0')}`,
    );
    const { db } = await loadScope(server.db);
    const now = new Date();
    await db
      .insertInto('blocks')
      .values(
        ids.map((id, index) => ({
          id,
          item_type_id: node.id,
          item_id: record.id,
          item_values: JSON.stringify({
            [titleFieldId]: `legacy ${index}`,
            [innerFieldId]: index + 1 < ids.length ? [ids[index + 1]] : [],
          }),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await db
      .updateTable('blocks')
      .set({ item_values: JSON.stringify({ [titleFieldId]: 'top', [innerFieldId]: [ids[0]] }) })
      .where('id', '=', top)
      .execute();

    const nested = await server.request('GET', `/items/${record.id}?nested=true`);
    assert.equal(nested.status, 200, JSON.stringify(nested.body).slice(0, 400));
    const sections = (nested.body as { data: { attributes: Values } }).data.attributes.sections;
    assert.equal(nestedLevels(sections), MAX_NESTING_DEPTH, 'whole blocks down to the limit');
    const listed = await server.request('GET', `/items?nested=true&filter[type]=${model.id}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body).slice(0, 400));

    const published = await server.request('PUT', `/items/${record.id}/publish`);
    assert.equal(published.status, 200, JSON.stringify(published.body).slice(0, 400));
    const state = await server.request('GET', `/items/${record.id}/current-vs-published-state`);
    assert.equal(state.status, 200, JSON.stringify(state.body).slice(0, 400));
    const publishedNested = await server.request(
      'GET',
      `/items/${record.id}?nested=true&version=published`,
    );
    assert.equal(publishedNested.status, 200, JSON.stringify(publishedNested.body).slice(0, 400));
    const duplicate = await server.request('POST', `/items/${record.id}/duplicate`);
    assert.equal(duplicate.status, 422, JSON.stringify(duplicate.body).slice(0, 400));
    const destroyed = await server.request('DELETE', `/items/${record.id}`);
    assert.equal(destroyed.status, 200, JSON.stringify(destroyed.body).slice(0, 400));
  });
});
