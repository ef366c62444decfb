import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildModel } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();
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
    const model = await buildModel(client);
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
    const model = await buildModel(client);
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

type RawEntity = {
  id: string;
  type: string;
  attributes: { position: number } & Record<string, unknown>;
  relationships: Record<string, { data: unknown }>;
};

/** The model as the CLI's migration generator reads it: raw entities by id. */
async function rawSchemaOf(itemTypeId: string) {
  const [entity, fields, fieldsets] = await Promise.all([
    client.itemTypes.rawFind(itemTypeId),
    client.fields.rawList(itemTypeId),
    client.fieldsets.rawList(itemTypeId),
  ]);
  const byId = (list: unknown[]) =>
    Object.fromEntries((list as RawEntity[]).map((item) => [item.id, item]));
  return {
    entity: entity.data,
    fieldsById: byId(fields.data),
    fieldsetsById: byId(fieldsets.data),
  };
}

type Command = { type: string; call?: string; arguments?: [string, { data: RawEntity }] };

/** Plans the moves with the `datocms` CLI's own generator, as `migrations:new --autogenerate`. */
async function planMoves(
  wanted: Awaited<ReturnType<typeof rawSchemaOf>>,
  current: Awaited<ReturnType<typeof rawSchemaOf>>,
): Promise<Command[]> {
  const { updateFieldsAndFieldsetsInItemType } = (await import(
    'datocms/lib/utils/environments-diff/resources/update-fields-and-fieldsets.js'
  )) as { updateFieldsAndFieldsetsInItemType: (a: unknown, b: unknown) => Command[] };
  return updateFieldsAndFieldsetsInItemType(wanted, current).filter(
    (command) => command.type === 'apiCallClientCommand',
  );
}

describe('position 0 and scripts generated from 0-based projects', () => {
  test('a generated reorder with 0-based positions ends in the intended order and round-trips', async () => {
    const model = await buildModel(client);
    const set = await client.fieldsets.create(model.id, { title: 'Set' });
    const make = (apiKey: string, fieldset?: string) =>
      client.fields.create(model.id, {
        label: apiKey,
        api_key: apiKey,
        field_type: 'string',
        ...(fieldset ? { fieldset: { type: 'fieldset' as const, id: fieldset } } : {}),
      });
    const body = await make('body');
    const title = await make('title');
    const z = await make('z1', set.id);
    const y = await make('y1', set.id);
    const x = await make('x1', set.id);

    // The source project: title, Set, body at the top; inside Set, 0-based as DatoCMS
    // returns it for older fieldsets: x, y, z.
    const wanted = structuredClone(await rawSchemaOf(model.id));
    const at = (id: string, position: number) => {
      const entity = wanted.fieldsById[id] ?? wanted.fieldsetsById[id];
      if (entity) entity.attributes.position = position;
    };
    at(title.id, 1);
    at(set.id, 2);
    at(body.id, 3);
    at(x.id, 0);
    at(y.id, 1);
    at(z.id, 2);

    const run = async (commands: Command[]) => {
      for (const command of commands) {
        const [id, request] = command.arguments ?? ['', { data: {} as RawEntity }];
        if (command.call === 'client.fields.update')
          await client.fields.rawUpdate(id, request as never);
        else await client.fieldsets.rawUpdate(id, request as never);
      }
    };
    const positions = async () =>
      Object.fromEntries(
        [...(await client.fields.list(model.id)), ...(await client.fieldsets.list(model.id))].map(
          (member) => [member.id, member.position],
        ),
      );
    const orderOf = (ids: string[], at: Record<string, number>) =>
      [...ids].sort((p, q) => (at[p] ?? 0) - (at[q] ?? 0));

    const plan = await planMoves(wanted, await rawSchemaOf(model.id));
    const sent = plan.map((command) => command.arguments?.[1].data.attributes.position);
    assert.ok(sent.includes(0), `the plan uses position 0: ${JSON.stringify(sent)}`);
    await run(plan);
    // The generator's plan is a heuristic: it may leave a gap, but the order is the one meant.
    const afterPlan = await positions();
    assert.deepEqual(orderOf([z.id, x.id, y.id], afterPlan), [x.id, y.id, z.id]);
    assert.deepEqual(orderOf([body.id, set.id, title.id], afterPlan), [title.id, set.id, body.id]);
    assert.equal(afterPlan[x.id], 0);

    // Generating again from what Fieldhouse returns converges on the source's numbers, and
    // then plans nothing: no spurious position changes.
    await run(await planMoves(wanted, await rawSchemaOf(model.id)));
    assert.deepEqual(await positions(), {
      [title.id]: 1,
      [set.id]: 2,
      [body.id]: 3,
      [x.id]: 0,
      [y.id]: 1,
      [z.id]: 2,
    });
    assert.deepEqual(await planMoves(wanted, await rawSchemaOf(model.id)), []);

    // A bulk reorder of the top level leaves the fieldset's 0-based numbers alone.
    await client.itemTypes.rawReorderFieldsAndFieldsets(model.id, {
      data: [{ type: 'fieldset', id: set.id, attributes: { position: 2 } }],
    });
    const afterReorder = await positions();
    assert.deepEqual(
      [x.id, y.id, z.id].map((id) => afterReorder[id]),
      [0, 1, 2],
    );
  });

  test('position 0 on update, create and reorder goes first and is kept', async () => {
    const model = await buildModel(client);
    const a = await client.fields.create(model.id, {
      label: 'a',
      api_key: 'a1',
      field_type: 'string',
    });
    const b = await client.fields.create(model.id, {
      label: 'b',
      api_key: 'b1',
      field_type: 'string',
    });
    const c = await client.fields.create(model.id, {
      label: 'c',
      api_key: 'c1',
      field_type: 'string',
    });
    const moved = await client.fields.update(c.id, { position: 0 });
    assert.equal(moved.position, 0);
    const order = async () =>
      (await client.fields.list(model.id))
        .sort((p, q) => p.position - q.position)
        .map((field) => [field.api_key, field.position]);
    // Everything from 0 on moves one place down, as DatoCMS does: a gap at 1, order kept.
    assert.deepEqual(await order(), [
      ['c1', 0],
      ['a1', 2],
      ['b1', 3],
    ]);
    const first = await client.fields.create(model.id, {
      label: 'd',
      api_key: 'd1',
      field_type: 'string',
      position: 0,
    });
    assert.equal(first.position, 0);
    assert.deepEqual(await order(), [
      ['d1', 0],
      ['c1', 1],
      ['a1', 3],
      ['b1', 4],
    ]);
    await client.fields.destroy(first.id);
    assert.deepEqual(await order(), [
      ['c1', 0],
      ['a1', 2],
      ['b1', 3],
    ]);

    // A bulk reorder listing every member 0-based.
    await client.itemTypes.rawReorderFieldsAndFieldsets(model.id, {
      data: [b, a, c].map((field, index) => ({
        type: 'field' as const,
        id: field.id,
        attributes: { position: index },
        relationships: { fieldset: { data: null } },
      })),
    });
    assert.deepEqual(await order(), [
      ['b1', 0],
      ['a1', 1],
      ['c1', 2],
    ]);
    // A partial one: the others fill the free places from 0 in their order.
    await client.itemTypes.rawReorderFieldsAndFieldsets(model.id, {
      data: [
        {
          type: 'field',
          id: c.id,
          attributes: { position: 0 },
          relationships: { fieldset: { data: null } },
        },
      ],
    });
    assert.deepEqual(await order(), [
      ['c1', 0],
      ['b1', 1],
      ['a1', 2],
    ]);
    const set = await client.fieldsets.create(model.id, { title: 'First', position: 0 });
    assert.equal(set.position, 0);
    assert.equal((await client.fieldsets.update(set.id, { position: 3 })).position, 3);
  });
});
