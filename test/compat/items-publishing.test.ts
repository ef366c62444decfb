import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { sql } from 'kysely';
import type { ScopedTransaction } from '../../src/db/environment-scope.ts';
import { errorCodesOf, rejectsWithApiError } from '../support/api-errors.ts';
import { raceTheLock } from '../support/environment-lock.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  itemTypeRef,
} from '../support/factories.ts';
import { itemPermission, tokenWithRole } from '../support/limited-token.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Locale by locale: what differs between a record's current and published values, and
// publishing or withdrawing only some locales. The site has two locales here.

let server: TestServer;
let client: Client;
before(async () => {
  server = await startTestServer();
  client = server.client();
  await client.site.update({ locales: ['en', 'it'] });
});
after(async () => {
  await server?.close();
});

/** A draft-mode model with a localized `title` and a non-localized `code`. */
async function localizedModel() {
  const model = await buildModel(client, { draft_mode_active: true });
  await buildField(client, { itemTypeId: model.id, api_key: 'title', localized: true });
  await buildField(client, { itemTypeId: model.id, api_key: 'code' });
  return model;
}

/** A record of a new localizedModel in both locales: title "Hello" / "Ciao", code "A". */
async function bilingualRecord() {
  const model = await localizedModel();
  const record = await client.items.create({
    item_type: itemTypeRef(model.id),
    title: { en: 'Hello', it: 'Ciao' },
    code: 'A',
  });
  return { model, record };
}

const state = (id: string) => client.items.currentVsPublishedState(id);

describe('current vs published state', () => {
  test('a draft: every locale of it is added, nothing is published', async () => {
    const { record } = await bilingualRecord();
    const found = await state(record.id);
    assert.equal(found.type, 'item_current_vs_published_state');
    assert.equal(found.id, record.id);
    assert.deepEqual(found.current_version_locales, ['en', 'it']);
    assert.deepEqual(found.published_version_locales, []);
    assert.deepEqual(found.added_locales, ['en', 'it']);
    assert.deepEqual(found.changed_locales, []);
    assert.deepEqual(found.removed_locales, []);
    assert.equal(found.non_localized_fields_changed, true);
    assert.deepEqual(found.current_version_invalid_locales, []);
    assert.equal(found.current_version_non_localized_fields_invalid, false);
    assert.equal(found.published_version, null);
    assert.equal(found.scheduled_publication, null);
  });

  test('after publishing, edits show as changed, added and removed locales', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'Hello' },
      code: 'A',
    });
    const published = await client.items.publish(record.id);
    let found = await state(record.id);
    assert.deepEqual(found.published_version_locales, ['en']);
    assert.deepEqual(
      [found.changed_locales, found.added_locales, found.removed_locales],
      [[], [], []],
    );
    assert.equal(found.non_localized_fields_changed, false);
    assert.deepEqual(found.published_version, {
      type: 'item_version',
      id: published.meta.current_version,
    });

    await client.items.update(record.id, { title: { en: 'Hello!', it: 'Ciao' } });
    found = await state(record.id);
    assert.deepEqual(found.changed_locales, ['en']);
    assert.deepEqual(found.added_locales, ['it']);
    assert.equal(found.non_localized_fields_changed, false);

    await client.items.publish(record.id);
    // Leaving a locale out of every localized field takes the record out of it.
    await client.items.update(record.id, { title: { en: 'Hello!' }, code: 'B' });
    found = await state(record.id);
    assert.deepEqual(found.current_version_locales, ['en']);
    assert.deepEqual(found.removed_locales, ['it']);
    assert.deepEqual([found.added_locales, found.changed_locales], [[], []]);
    assert.equal(found.non_localized_fields_changed, true);
  });

  test('the published version is included', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'x' },
    });
    const published = await client.items.publish(record.id);
    const raw = await client.items.rawCurrentVsPublishedState(record.id);
    assert.deepEqual(
      raw.included.map((entity) => [entity.type, entity.id]),
      [['item_version', published.meta.current_version]],
    );
  });

  test("the record's schedules are linked and included", async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'x' },
    });
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const schedule = await client.scheduledPublication.create(record.id, {
      publication_scheduled_at: at,
    });
    const raw = await client.items.rawCurrentVsPublishedState(record.id);
    assert.deepEqual(raw.data.relationships.scheduled_publication.data, {
      type: 'scheduled_publication',
      id: schedule.id,
    });
    assert.equal(raw.data.relationships.scheduled_unpublishing.data, null);
    assert.deepEqual(
      raw.included.map((entity) => [entity.type, entity.id]),
      [['scheduled_publication', schedule.id]],
    );
  });

  test('a block edited in place is a change of the locale holding it', async () => {
    const block = await buildBlockModel(client);
    const model = await buildModel(client, { draft_mode_active: true });
    await buildModularContentField(client, {
      itemTypeId: model.id,
      api_key: 'body',
      localized: true,
      blockIds: [block.id],
    });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      body: { en: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'one' } })] },
    });
    await client.items.publish(record.id);
    assert.deepEqual((await state(record.id)).changed_locales, []);
    const [blockId] = (record.body as Record<string, string[]>).en ?? [];
    await client.items.update(record.id, {
      body: { en: [blockInRequest({ id: blockId, attributes: { title: 'two' } })] },
    });
    assert.deepEqual((await state(record.id)).changed_locales, ['en']);
  });

  test('invalid parts after a schema change are named by locale', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'Hello' },
      code: null,
    });
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'slug_text',
      localized: true,
      validators: { required: {} },
    });
    const [code] = await client.fields
      .list(model.id)
      .then((f) => f.filter((x) => x.api_key === 'code'));
    await client.fields.update(code?.id ?? '', { validators: { required: {} } });
    const found = await state(record.id);
    assert.deepEqual(found.current_version_invalid_locales, ['en']);
    assert.equal(found.current_version_non_localized_fields_invalid, true);
  });

  test('an unknown record is 404', async () => {
    await rejectsWithApiError(state('no-such-record'), 'NOT_FOUND');
  });
});

describe('selective publishing', () => {
  test('publishing one locale keeps the others as published, and the record stays updated', async () => {
    const { record } = await bilingualRecord();
    await client.items.publish(record.id);
    await client.items.update(record.id, { title: { en: 'Hello 2', it: 'Ciao 2' }, code: 'B' });

    const partly = await client.items.publish(record.id, {
      content_in_locales: ['en'],
      non_localized_content: false,
    });
    assert.equal(partly.meta.status, 'updated');
    const live = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(live.title, { en: 'Hello 2', it: 'Ciao' });
    assert.equal(live.code, 'A');
    let found = await state(record.id);
    assert.deepEqual(found.changed_locales, ['it']);
    assert.equal(found.non_localized_fields_changed, true);

    const rest = await client.items.publish(record.id, {
      content_in_locales: ['it'],
      non_localized_content: true,
    });
    assert.equal(rest.meta.status, 'published', 'everything current is now published');
    found = await state(record.id);
    assert.deepEqual(found.changed_locales, []);
    assert.equal(found.non_localized_fields_changed, false);
  });

  test('a never-published record published in one locale is live in that locale only', async () => {
    const { record } = await bilingualRecord();
    const partly = await client.items.publish(record.id, {
      content_in_locales: ['it'],
      non_localized_content: true,
    });
    assert.equal(partly.meta.status, 'updated');
    assert.ok(partly.meta.published_at);
    const live = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(live.title, { it: 'Ciao' });
    assert.equal(live.code, 'A');
    assert.deepEqual((await state(record.id)).published_version_locales, ['it']);
  });

  test('publishing an invalid part is refused; the valid part can be published', async () => {
    const { model, record } = await bilingualRecord();
    const fields = await client.fields.list(model.id);
    const title = fields.find((field) => field.api_key === 'title');
    await client.fields.update(title?.id ?? '', { validators: { length: { min: 5 } } });
    // "Ciao" is now too short; "Hello" is not.
    await rejectsWithApiError(
      client.items.publish(record.id, { content_in_locales: ['it'], non_localized_content: false }),
      'INVALID_FIELD',
    );
    assert.equal((await client.items.find(record.id)).meta.status, 'draft', 'nothing changed');
    const partly = await client.items.publish(record.id, {
      content_in_locales: ['en'],
      non_localized_content: true,
    });
    assert.equal(partly.meta.status, 'updated');
    assert.equal(partly.meta.is_published_version_valid, true);
  });

  test('an unknown locale is refused and changes nothing', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'x' },
    });
    await rejectsWithApiError(
      client.items.publish(record.id, { content_in_locales: ['fr'], non_localized_content: true }),
      'INVALID_ATTRIBUTES',
    );
    await rejectsWithApiError(
      client.items.rawPublish(record.id, {
        data: { type: 'selective_publish_operation', attributes: { content_in_locales: ['en'] } },
      } as never),
      'INVALID_FORMAT',
    );
    assert.equal((await client.items.find(record.id)).meta.status, 'draft');
  });

  test('a selection of nothing is accepted and publishes nothing', async () => {
    const { record } = await bilingualRecord();
    const nothing = { content_in_locales: [], non_localized_content: false };
    const draft = await client.items.publish(record.id, nothing);
    assert.equal(draft.meta.status, 'draft');
    assert.equal(draft.meta.published_at, null);

    await client.items.publish(record.id);
    await client.items.update(record.id, { title: { en: 'Hello 2', it: 'Ciao 2' } });
    const before = await client.items.find(record.id);
    const updated = await client.items.publish(record.id, nothing);
    assert.equal(updated.meta.status, 'updated');
    assert.equal(updated.meta.published_at, before.meta.published_at);
    const live = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(live.title, { en: 'Hello', it: 'Ciao' });
  });

  test('unpublishing one locale withdraws it; withdrawing the last one unpublishes the record', async () => {
    const { record } = await bilingualRecord();
    await client.items.publish(record.id);
    await rejectsWithApiError(
      client.items.unpublish(record.id, { content_in_locales: ['fr'] }),
      'INVALID_ATTRIBUTES',
    );

    const partly = await client.items.unpublish(record.id, { content_in_locales: ['it'] });
    assert.equal(partly.meta.status, 'updated');
    const live = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(live.title, { en: 'Hello' });
    assert.equal(live.code, 'A');
    await rejectsWithApiError(
      client.items.unpublish(record.id, { content_in_locales: ['it'] }),
      'INVALID_ATTRIBUTES',
    );

    const whole = await client.items.unpublish(record.id, { content_in_locales: ['en'] });
    assert.equal(whole.meta.status, 'draft');
    assert.equal(whole.meta.published_at, null);
    await rejectsWithApiError(client.items.find(record.id, { version: 'published' }), 'NOT_FOUND');
  });
});

describe('version validity', () => {
  test('meta.is_valid says whether a version passes the schema as it is now', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'Hi' },
      code: 'A',
    });
    await client.items.update(record.id, { title: { en: 'Hello there' } });
    let versions = await client.itemVersions.list(record.id);
    assert.deepEqual(
      versions.map((version) => version.meta.is_valid),
      [true, true],
    );

    const title = (await client.fields.list(model.id)).find((f) => f.api_key === 'title');
    await client.fields.update(title?.id ?? '', { validators: { length: { min: 5 } } });
    // Newest first: "Hello there" still passes; the first version's "Hi" no longer does.
    versions = await client.itemVersions.list(record.id);
    assert.deepEqual(
      versions.map((version) => version.meta.is_valid),
      [true, false],
    );
    const oldest = versions[1];
    assert.equal((await client.itemVersions.find(oldest?.id ?? '')).meta.is_valid, false);
    // Restoring an invalid version is validated like any update.
    await rejectsWithApiError(client.itemVersions.restore(oldest?.id ?? ''), 'INVALID_FIELD');
  });
});

describe('publishing in trees', () => {
  /** A draft-mode tree: root ← middle ← leaf, all drafts. */
  async function draftTree() {
    const model = await buildModel(client, { draft_mode_active: true, tree: true });
    const root = await client.items.create({ item_type: itemTypeRef(model.id) });
    const middle = await client.items.create({
      item_type: itemTypeRef(model.id),
      parent_id: root.id,
    });
    const leaf = await client.items.create({
      item_type: itemTypeRef(model.id),
      parent_id: middle.id,
    });
    return { root, middle, leaf };
  }
  const status = async (id: string) => (await client.items.find(id)).meta.status;

  test('a record under an unpublished parent is refused unless recursive publishes the parents', async () => {
    const { root, middle, leaf } = await draftTree();
    await rejectsWithApiError(client.items.publish(leaf.id), 'UNPUBLISHED_PARENT');
    assert.equal(await status(leaf.id), 'draft', 'nothing changed');

    const published = await client.items.publish(leaf.id, null, { recursive: true });
    assert.equal(published.meta.status, 'published');
    assert.deepEqual([await status(root.id), await status(middle.id)], ['published', 'published']);
  });

  test('a parent with published children is withdrawn only with recursive, children first', async () => {
    const { root, middle, leaf } = await draftTree();
    await client.items.publish(leaf.id, null, { recursive: true });
    await rejectsWithApiError(client.items.unpublish(root.id), 'PUBLISHED_CHILDREN');
    assert.equal(await status(root.id), 'published', 'nothing changed');

    // A leaf goes alone; then the root takes the middle record with it.
    assert.equal((await client.items.unpublish(leaf.id)).meta.status, 'draft');
    await client.items.unpublish(root.id, null, { recursive: true });
    assert.deepEqual(
      [await status(root.id), await status(middle.id), await status(leaf.id)],
      ['draft', 'draft', 'draft'],
    );
  });

  /** A role that reads, creates, and publishes only the records its own token created. */
  async function ownPublisher() {
    const limited = await tokenWithRole(server.db, {
      positive_item_type_permissions: [
        itemPermission('read'),
        itemPermission('create'),
        itemPermission('publish', { on_creator: 'self' }),
      ],
    });
    return server.client({ apiToken: limited.token });
  }

  /** What a concurrent withdrawal commits, written straight into the record's row. */
  async function withdrawnInPlace(tx: ScopedTransaction, id: string) {
    await tx.db
      .updateTable('items')
      .set({
        status: 'draft',
        published_values: null,
        published_version_id: null,
        published_at: null,
      })
      .where('id', '=', id)
      .execute();
  }

  /** What a concurrent publication commits, written straight into the record's row. */
  async function publishedInPlace(tx: ScopedTransaction, id: string) {
    await tx.db
      .updateTable('items')
      .set({
        status: 'published',
        published_values: sql`item_values`,
        published_version_id: sql`current_version_id`,
        published_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
  }

  test('recursive needs the publish permission on the parents it publishes', async () => {
    const { leaf } = await draftTree();
    const own = await ownPublisher();
    const mine = await own.items.create({ item_type: leaf.item_type, parent_id: leaf.id });
    await rejectsWithApiError(own.items.publish(mine.id), 'UNPUBLISHED_PARENT');
    // Its parents are not the token's: publishing them along is refused.
    await rejectsWithApiError(
      own.items.publish(mine.id, null, { recursive: true }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.deepEqual([await status(leaf.id), await status(mine.id)], ['draft', 'draft']);
  });

  test('recursive judges the parents the write finds, not those found before it', async () => {
    const { leaf } = await draftTree();
    const own = await ownPublisher();
    const mine = await own.items.create({ item_type: leaf.item_type, parent_id: leaf.id });
    await client.items.publish(leaf.id, null, { recursive: true });
    // Every parent is published when the request comes; the leaf (not the token's) is
    // withdrawn just before its write runs: publishing it along is refused.
    const publishing = raceTheLock(
      server.db,
      () => own.items.publish(mine.id, null, { recursive: true }),
      (tx) => withdrawnInPlace(tx, leaf.id),
    );
    await rejectsWithApiError(publishing, 'INSUFFICIENT_PERMISSIONS');
    assert.deepEqual([await status(leaf.id), await status(mine.id)], ['draft', 'draft']);
  });

  test('recursive judges the children the write finds, not those found before it', async () => {
    const own = await ownPublisher();
    const model = await buildModel(client, { draft_mode_active: true, tree: true });
    const mine = await own.items.create({ item_type: itemTypeRef(model.id) });
    const child = await client.items.create({
      item_type: itemTypeRef(model.id),
      parent_id: mine.id,
    });
    await own.items.publish(mine.id);
    // The child (not the token's) is published just before the withdrawal's write runs.
    const withdrawing = raceTheLock(
      server.db,
      () => own.items.unpublish(mine.id, null, { recursive: true }),
      (tx) => publishedInPlace(tx, child.id),
    );
    await rejectsWithApiError(withdrawing, 'INSUFFICIENT_PERMISSIONS');
    assert.deepEqual([await status(mine.id), await status(child.id)], ['published', 'published']);
  });

  test('recursive must be true or false', async () => {
    const { root } = await draftTree();
    const response = await server.request('PUT', `/items/${root.id}/publish?recursive=yes`);
    assert.equal(response.status, 422);
    assert.deepEqual(errorCodesOf(response.body), ['INVALID_PARAMS']);
    assert.equal(await status(root.id), 'draft');
  });
});
