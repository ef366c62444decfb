import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let client: Client;
before(async () => {
  server = await startTestServer();
  client = server.client();
});
after(async () => {
  await server?.close();
});

let modelCount = 0;
async function newModel() {
  modelCount++;
  return client.itemTypes.create({ name: `Model ${modelCount}`, api_key: `model${modelCount}` });
}

/**
 * The model's form as the API reports it: each group (null = top level, else a fieldset
 * id) with its member ids in position order. Fails unless every group is numbered 1..n.
 */
async function groupsOf(itemTypeId: string): Promise<Map<string | null, string[]>> {
  const [fields, fieldsets] = await Promise.all([
    client.fields.list(itemTypeId),
    client.fieldsets.list(itemTypeId),
  ]);
  const groups = new Map<string | null, { id: string; position: number }[]>([[null, []]]);
  for (const fieldset of fieldsets) {
    groups.get(null)?.push(fieldset);
    groups.set(fieldset.id, []);
  }
  for (const field of fields) groups.get(field.fieldset?.id ?? null)?.push(field);
  const result = new Map<string | null, string[]>();
  for (const [key, members] of groups) {
    members.sort((a, b) => a.position - b.position);
    assert.deepEqual(
      members.map((m) => m.position),
      members.map((_, i) => i + 1),
      `group ${key} is not contiguous`,
    );
    result.set(
      key,
      members.map((m) => m.id),
    );
  }
  return result;
}

/** A tiny seeded generator, so a failing sequence can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor((state / 2_147_483_648) * n);
  };
}

function insert(list: string[], id: string, position: number | undefined): void {
  list.splice(position === undefined ? list.length : position - 1, 0, id);
}

function remove(list: string[], id: string): void {
  const index = list.indexOf(id);
  if (index !== -1) list.splice(index, 1);
}

describe('field and fieldset positions', () => {
  test('explicit positions insert and shift; moves and deletes close gaps', async () => {
    const model = await newModel();
    const make = (apiKey: string, position?: number) =>
      client.fields.create(model.id, {
        label: apiKey,
        api_key: apiKey,
        field_type: 'string',
        ...(position ? { position } : {}),
      });
    const a = await make('a1');
    const b = await make('b1');
    const c = await make('c1', 1);
    assert.deepEqual((await groupsOf(model.id)).get(null), [c.id, a.id, b.id]);
    await client.fields.update(c.id, { position: 3 });
    assert.deepEqual((await groupsOf(model.id)).get(null), [a.id, b.id, c.id]);
    await client.fields.update(c.id, { position: 2 });
    assert.deepEqual((await groupsOf(model.id)).get(null), [a.id, c.id, b.id]);
    const set = await client.fieldsets.create(model.id, { title: 'Set', position: 2 });
    assert.deepEqual((await groupsOf(model.id)).get(null), [a.id, set.id, c.id, b.id]);
    const moved = await client.fields.update(b.id, { fieldset: { type: 'fieldset', id: set.id } });
    assert.equal(moved.position, 1);
    assert.deepEqual((await groupsOf(model.id)).get(null), [a.id, set.id, c.id]);
    await client.fields.update(a.id, {
      fieldset: { type: 'fieldset', id: set.id },
      position: 1,
    });
    const groups = await groupsOf(model.id);
    assert.deepEqual(groups.get(null), [set.id, c.id]);
    assert.deepEqual(groups.get(set.id), [a.id, b.id]);
    await client.fields.destroy(a.id);
    assert.deepEqual((await groupsOf(model.id)).get(set.id), [b.id]);
    const out = await client.fields.update(b.id, { fieldset: null });
    assert.equal(out.position, 3, 'leaving a fieldset without a position appends');
  });

  test('a random sequence of creates, moves, duplicates and deletes keeps every group contiguous', async () => {
    const model = await newModel();
    const next = random(20_260_422);
    const expected = new Map<string | null, string[]>([[null, []]]);
    const fieldGroup = new Map<string, string | null>();
    const fieldsets: string[] = [];
    let created = 0;
    const pick = <T>(list: readonly T[]): T | undefined => list[next(list.length)];
    const maybePosition = (size: number) => (next(3) === 0 ? undefined : 1 + next(size));

    for (let step = 0; step < 60; step++) {
      const fieldIds = [...fieldGroup.keys()];
      const op = fieldIds.length < 3 ? 0 : next(7);
      if (op === 0 || op === 1) {
        const group = next(2) === 0 ? null : (pick(fieldsets) ?? null);
        const list = expected.get(group) ?? [];
        const position = maybePosition(list.length + 1);
        created++;
        const field = await client.fields.create(model.id, {
          label: `F${created}`,
          api_key: `f${created}x`,
          field_type: 'string',
          ...(position ? { position } : {}),
          ...(group ? { fieldset: { type: 'fieldset' as const, id: group } } : {}),
        });
        insert(list, field.id, position);
        fieldGroup.set(field.id, group);
      } else if (op === 2) {
        const top = expected.get(null) ?? [];
        const position = maybePosition(top.length + 1);
        const set = await client.fieldsets.create(model.id, {
          title: `S${step}`,
          ...(position ? { position } : {}),
        });
        insert(top, set.id, position);
        expected.set(set.id, []);
        fieldsets.push(set.id);
      } else if (op === 3) {
        const id = pick(fieldIds) ?? '';
        const from = fieldGroup.get(id) ?? null;
        const to = next(2) === 0 ? null : (pick(fieldsets) ?? null);
        const target = expected.get(to) ?? [];
        const position = maybePosition(from === to ? target.length : target.length + 1);
        await client.fields.update(id, {
          ...(position ? { position } : {}),
          fieldset: to ? { type: 'fieldset', id: to } : null,
        });
        // Sent its own fieldset and no position: it stays where it is.
        if (from !== to || position !== undefined) {
          remove(expected.get(from) ?? [], id);
          insert(target, id, position);
          fieldGroup.set(id, to);
        }
      } else if (op === 4) {
        const id = pick(fieldIds) ?? '';
        const copy = await client.fields.duplicate(id);
        const group = fieldGroup.get(id) ?? null;
        const list = expected.get(group) ?? [];
        list.splice(list.indexOf(id) + 1, 0, copy.id);
        fieldGroup.set(copy.id, group);
      } else if (op === 5) {
        const id = pick(fieldIds) ?? '';
        await client.fields.destroy(id);
        remove(expected.get(fieldGroup.get(id) ?? null) ?? [], id);
        fieldGroup.delete(id);
      } else {
        const set = pick(fieldsets);
        if (!set) continue;
        await client.fieldsets.destroy(set);
        const top = expected.get(null) ?? [];
        remove(top, set);
        for (const id of expected.get(set) ?? []) {
          top.push(id);
          fieldGroup.set(id, null);
        }
        expected.delete(set);
        fieldsets.splice(fieldsets.indexOf(set), 1);
      }
      assert.deepEqual(await groupsOf(model.id), expected, `after step ${step}`);
    }
    assert.ok(fieldGroup.size > 5, 'the sequence exercised a real form');
  });
});
