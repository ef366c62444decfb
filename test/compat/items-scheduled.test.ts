import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError, type Client } from '@datocms/cma-client-node';
import { loadScope } from '../../src/db/environment-scope.ts';
import { errorCodesOf } from '../support/api-errors.ts';
import { LOOPBACK } from '../support/delivery-fixtures.ts';
import { buildField, buildModel, buildWebhook } from '../support/factories.ts';
import { useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

// A short poll so due schedules run soon after they are due.
const server = useTestServer({ webhookAllow: LOOPBACK, schedulePollMs: 100 });
const client = server.client();
const receiver = useReceiver();

const HOUR = 3_600_000;
/** An ISO time `ms` from now (as this process's clock has it). */
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A draft record of a new draft-mode model with a `title` field, in `api`'s environment. */
async function draftRecord(api: Client = client, title = 'Scheduled') {
  const model = await buildModel(api, { draft_mode_active: true });
  const field = await buildField(api, { itemTypeId: model.id, api_key: 'title', label: 'Title' });
  const record = await api.items.create({ item_type: { type: 'item_type', id: model.id }, title });
  assert.equal(record.meta.status, 'draft');
  return { model, field, record };
}

/** Reads the record until `done` holds (the runner works in the background). */
async function waitForRecord(
  api: Client,
  id: string,
  done: (record: Awaited<ReturnType<Client['items']['find']>>) => boolean,
) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const record = await api.items.find(id);
    if (done(record)) return record;
    if (Date.now() > deadline)
      throw new Error(`record ${id} never got there: ${JSON.stringify(record.meta)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function refused(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('the request succeeded');
}

type Payload = {
  event_type: string;
  webhook_id: string;
  entity: { id: string; meta: Record<string, unknown> };
};

let hooks = 0;
/** A webhook on publish/unpublish record events, under its own receiver path. */
async function recordHook() {
  hooks += 1;
  const path = `/scheduled-${hooks}`;
  await buildWebhook(client, {
    url: `${receiver.url}${path}`,
    events: [{ entity_type: 'item', event_types: ['publish', 'unpublish'], filters: [] }],
    auto_retry: false,
  });
  /** The first payload this webhook received, once it has. */
  return async (): Promise<Payload> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const mine = receiver.requests.filter((request) => request.path === path);
      const [first] = mine;
      if (first) return JSON.parse(first.body) as Payload;
      if (Date.now() > deadline) throw new Error(`${path} got nothing`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
}

describe('scheduled publication', () => {
  test('create shows on the record, a new one replaces it, destroy clears it', async () => {
    const { record } = await draftRecord();
    const at = '2099-01-02T03:04:05.000Z';
    const schedule = await client.scheduledPublication.create(record.id, {
      publication_scheduled_at: at,
    });
    assert.equal(schedule.type, 'scheduled_publication');
    assert.equal(schedule.publication_scheduled_at, at);
    assert.equal(schedule.selective_publication, null);
    assert.deepEqual(schedule.item, { type: 'item', id: record.id });
    assert.equal((await client.items.find(record.id)).meta.publication_scheduled_at, at);
    const listed = await client.items.list({ filter: { ids: record.id } });
    assert.equal(listed[0]?.meta.publication_scheduled_at, at);

    const later = '2099-02-03T04:05:06.000Z';
    const replaced = await client.scheduledPublication.create(record.id, {
      publication_scheduled_at: later,
    });
    assert.equal(replaced.publication_scheduled_at, later);
    assert.equal((await client.items.find(record.id)).meta.publication_scheduled_at, later);

    const item = await client.scheduledPublication.destroy(record.id);
    assert.equal(item.id, record.id);
    assert.equal(item.meta.publication_scheduled_at, null);
    assert.equal((await client.items.find(record.id)).meta.publication_scheduled_at, null);
    const again = await refused(client.scheduledPublication.destroy(record.id));
    assert.equal(again.response.status, 404);
    assert.deepEqual(errorCodesOf(again.response.body), ['NOT_FOUND']);
  });

  test('bad input is refused with 422 and changes nothing; an unknown record is 404', async () => {
    const { record } = await draftRecord();
    for (const [attributes, field] of [
      [{ publication_scheduled_at: '2001-01-01T00:00:00Z' }, 'publication_scheduled_at'],
      [{ publication_scheduled_at: 'tomorrow' }, 'publication_scheduled_at'],
    ] as const) {
      const error = await refused(
        client.scheduledPublication.create(record.id, attributes as never),
      );
      assert.equal(error.response.status, 422, JSON.stringify(error.response.body));
      assert.deepEqual(errorCodesOf(error.response.body), ['INVALID_FIELD']);
      assert.match(JSON.stringify(error.response.body), new RegExp(field));
    }
    // A selection not shaped as selective publishing takes it is refused by the body's schema.
    const malformed = await refused(
      client.scheduledPublication.create(record.id, {
        publication_scheduled_at: inFuture(HOUR),
        selective_publication: { content_in_locales: 'en', non_localized_content: true },
      } as never),
    );
    assert.equal(malformed.response.status, 422);
    assert.deepEqual(errorCodesOf(malformed.response.body), ['INVALID_FORMAT']);
    assert.match(JSON.stringify(malformed.response.body), /selective_publication/);
    const missing = await refused(
      client.scheduledPublication.rawCreate(record.id, {
        data: { type: 'scheduled_publication', attributes: {} },
      } as never),
    );
    assert.equal(missing.response.status, 422);
    assert.equal((await client.items.find(record.id)).meta.publication_scheduled_at, null);

    const unknown = await refused(
      client.scheduledPublication.create('AAAAAAAAAAAAAAAAAAAAAA', {
        publication_scheduled_at: inFuture(HOUR),
      }),
    );
    assert.equal(unknown.response.status, 404);
    assert.deepEqual(errorCodesOf(unknown.response.body), ['NOT_FOUND']);
  });

  test('when due, the record is published once and the publish webhook fires', async () => {
    const received = await recordHook();
    const { record } = await draftRecord();
    await client.scheduledPublication.create(record.id, {
      publication_scheduled_at: inFuture(2000),
    });
    const published = await waitForRecord(client, record.id, (r) => r.meta.status === 'published');
    assert.equal(published.meta.publication_scheduled_at, null);
    assert.equal(published.meta.published_at !== null, true);

    const payload = await received();
    assert.equal(payload.event_type, 'publish');
    assert.equal(payload.entity.id, record.id);
    assert.equal(payload.entity.meta.status, 'published');
    assert.equal(payload.entity.meta.publication_scheduled_at, null);
    // One publish event for one schedule: exactly one call was recorded for this webhook.
    const calls = await client.webhookCalls.list({
      filter: { fields: { webhook_id: { eq: payload.webhook_id } } },
    });
    assert.equal(calls.length, 1);
  });

  test('a schedule destroyed before it is due does nothing', async () => {
    const { record: cancelled } = await draftRecord();
    const { record: control } = await draftRecord();
    const due = Date.now() + 3000;
    await client.scheduledPublication.create(cancelled.id, {
      publication_scheduled_at: new Date(due).toISOString(),
    });
    // Succeeds only while the schedule has not run (a run deletes it).
    await client.scheduledPublication.destroy(cancelled.id);
    await client.scheduledPublication.create(control.id, {
      publication_scheduled_at: new Date(due + 200).toISOString(),
    });
    // Schedules run oldest first: once the later one ran, the cancelled one would have.
    await waitForRecord(client, control.id, (r) => r.meta.status === 'published');
    const untouched = await client.items.find(cancelled.id);
    assert.equal(untouched.meta.status, 'draft');
    assert.equal(untouched.meta.publication_scheduled_at, null);
  });

  test('a record invalid when due is not published; the failure is recorded once', async () => {
    const { record, field } = await draftRecord(client, '');
    await client.scheduledPublication.create(record.id, {
      publication_scheduled_at: inFuture(4000),
    });
    // A schema change makes the record invalid before its publication is due (4 s leave
    // room for it on a busy machine).
    await client.fields.update(field.id, { validators: { required: {} } });
    const after = await waitForRecord(
      client,
      record.id,
      (r) => r.meta.publication_scheduled_at === null,
    );
    assert.equal(after.meta.status, 'draft');
    const scope = await loadScope(server.db);
    const rows = await scope.db
      .selectFrom('scheduled_actions')
      .selectAll()
      .where('item_id', '=', record.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.ok(rows[0]?.failed_at, 'the schedule gave up');
    assert.equal(rows[0]?.attempts, 1, 'a refusal is not retried');
    assert.match(rows[0]?.failure ?? '', /title/);
  });
});

describe('scheduled unpublishing', () => {
  test('create and destroy show on the record', async () => {
    const { record } = await draftRecord();
    await client.items.publish(record.id);
    const at = '2099-03-04T05:06:07.000Z';
    const schedule = await client.scheduledUnpublishing.create(record.id, {
      unpublishing_scheduled_at: at,
    });
    assert.equal(schedule.type, 'scheduled_unpublishing');
    assert.equal(schedule.unpublishing_scheduled_at, at);
    assert.equal(schedule.content_in_locales, null);
    assert.deepEqual(schedule.item, { type: 'item', id: record.id });
    const found = await client.items.find(record.id);
    assert.equal(found.meta.unpublishing_scheduled_at, at);
    assert.equal(found.meta.publication_scheduled_at, null, 'the other kind is apart');

    const item = await client.scheduledUnpublishing.destroy(record.id);
    assert.equal(item.meta.unpublishing_scheduled_at, null);
    const past = await refused(
      client.scheduledUnpublishing.create(record.id, {
        unpublishing_scheduled_at: '2001-01-01T00:00:00Z',
      }),
    );
    assert.equal(past.response.status, 422);
    assert.match(JSON.stringify(past.response.body), /unpublishing_scheduled_at/);
  });

  test('when due, the record is unpublished and the unpublish webhook fires', async () => {
    const { record } = await draftRecord();
    await client.items.publish(record.id);
    const received = await recordHook();
    await client.scheduledUnpublishing.create(record.id, {
      unpublishing_scheduled_at: inFuture(2000),
    });
    const unpublished = await waitForRecord(client, record.id, (r) => r.meta.status === 'draft');
    assert.equal(unpublished.meta.unpublishing_scheduled_at, null);
    assert.equal(unpublished.meta.published_at, null);
    const payload = await received();
    assert.equal(payload.event_type, 'unpublish');
    assert.equal(payload.entity.id, record.id);
  });
});

test('a selective schedule publishes or withdraws only the locales it names', async () => {
  await client.site.update({ locales: ['en', 'it'] });
  try {
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title', localized: true });
    const record = await client.items.create({
      item_type: { type: 'item_type', id: model.id },
      title: { en: 'Hello', it: 'Ciao' },
    });
    const selective_publication = { content_in_locales: ['en'], non_localized_content: true };
    const publication = await client.scheduledPublication.create(record.id, {
      publication_scheduled_at: inFuture(1500),
      selective_publication,
    });
    assert.deepEqual(publication.selective_publication, selective_publication);
    await waitForRecord(client, record.id, (r) => r.meta.publication_scheduled_at === null);
    const published = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(published.title, { en: 'Hello' });

    await client.items.publish(record.id);
    const unpublishing = await client.scheduledUnpublishing.create(record.id, {
      unpublishing_scheduled_at: inFuture(1500),
      content_in_locales: ['it'],
    });
    assert.deepEqual(unpublishing.content_in_locales, ['it']);
    await waitForRecord(client, record.id, (r) => r.meta.unpublishing_scheduled_at === null);
    const withdrawn = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(withdrawn.title, { en: 'Hello' });
    assert.notEqual((await client.items.find(record.id)).meta.status, 'draft');
  } finally {
    await client.site.update({ locales: ['en'] });
  }
});

test('a schedule in a sandbox runs in the sandbox', async () => {
  const sandboxId = `scheduled-${Date.now().toString(36)}`;
  await client.environments.fork('main', { id: sandboxId });
  const sandbox = server.client({ environment: sandboxId });
  const { record } = await draftRecord(sandbox);
  await sandbox.scheduledPublication.create(record.id, {
    publication_scheduled_at: inFuture(2000),
  });
  const published = await waitForRecord(sandbox, record.id, (r) => r.meta.status === 'published');
  assert.equal(published.meta.publication_scheduled_at, null);
  const onPrimary = await refused(client.items.find(record.id));
  assert.equal(onPrimary.response.status, 404, 'the record lives in the sandbox only');
});

test('a fork copies pending schedules; a duplicate carries none; a deleted record takes its own', async () => {
  const { record } = await draftRecord();
  const at = '2099-05-06T07:08:09.000Z';
  await client.scheduledPublication.create(record.id, { publication_scheduled_at: at });
  await client.scheduledUnpublishing.create(record.id, { unpublishing_scheduled_at: at });

  const sandboxId = `scheduled-copy-${Date.now().toString(36)}`;
  await client.environments.fork('main', { id: sandboxId });
  const sandbox = server.client({ environment: sandboxId });
  const copied = await sandbox.items.find(record.id);
  assert.equal(copied.meta.publication_scheduled_at, at);
  assert.equal(copied.meta.unpublishing_scheduled_at, at);
  // The copy is the sandbox's own: cancelling it there leaves the primary's.
  await sandbox.scheduledPublication.destroy(record.id);
  assert.equal((await client.items.find(record.id)).meta.publication_scheduled_at, at);

  const duplicate = await client.items.duplicate(record.id);
  assert.equal(duplicate.meta.publication_scheduled_at, null);
  assert.equal(duplicate.meta.unpublishing_scheduled_at, null);

  await client.items.destroy(record.id);
  const scope = await loadScope(server.db);
  const left = await scope.db
    .selectFrom('scheduled_actions')
    .select('seq')
    .where('item_id', '=', record.id)
    .execute();
  assert.equal(left.length, 0);
});

describe('schedules and the site locales (issue 23)', () => {
  /** The record's schedules as stored. */
  async function storedSchedules(itemId: string) {
    const scope = await loadScope(server.db);
    return scope.db
      .selectFrom('scheduled_actions')
      .selectAll()
      .where('item_id', '=', itemId)
      .orderBy('action')
      .execute();
  }

  test('a locale the site does not have is refused at creation with 422, changing nothing', async () => {
    const { record } = await draftRecord();
    for (const create of [
      () =>
        client.scheduledPublication.create(record.id, {
          publication_scheduled_at: inFuture(HOUR),
          selective_publication: { content_in_locales: ['xx'], non_localized_content: true },
        }),
      () =>
        client.scheduledUnpublishing.create(record.id, {
          unpublishing_scheduled_at: inFuture(HOUR),
          content_in_locales: ['en', 'xx'],
        }),
    ]) {
      const error = await refused(create());
      assert.equal(error.response.status, 422, JSON.stringify(error.response.body));
      assert.deepEqual(errorCodesOf(error.response.body), ['INVALID_FIELD']);
      assert.match(JSON.stringify(error.response.body), /xx/);
    }
    assert.deepEqual(await storedSchedules(record.id), []);
    const after = await client.items.find(record.id);
    assert.equal(after.meta.publication_scheduled_at, null);
    assert.equal(after.meta.unpublishing_scheduled_at, null);
  });

  test('a locale removed from the site leaves the schedules naming it: one left with nothing to do gives up, with its reason', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    try {
      const model = await buildModel(client, { draft_mode_active: true });
      await buildField(client, { itemTypeId: model.id, api_key: 'title', localized: true });
      const record = await client.items.create({
        item_type: { type: 'item_type', id: model.id },
        title: { en: 'Hello', it: 'Ciao' },
      });
      await client.items.publish(record.id);
      await client.scheduledPublication.create(record.id, {
        publication_scheduled_at: inFuture(HOUR),
        selective_publication: { content_in_locales: ['en', 'it'], non_localized_content: false },
      });
      await client.scheduledUnpublishing.create(record.id, {
        unpublishing_scheduled_at: inFuture(HOUR),
        content_in_locales: ['it'],
      });
      await client.site.update({ locales: ['en'] });

      const [publication, unpublishing] = await storedSchedules(record.id);
      assert.deepEqual(publication?.selection, {
        content_in_locales: ['en'],
        non_localized_content: false,
      });
      assert.equal(publication?.failed_at, null, 'still due for the locale it keeps');
      assert.ok(unpublishing?.failed_at, 'nothing left to withdraw: it gave up');
      assert.match(unpublishing?.failure ?? '', /it.*removed from the site/);
      const after = await client.items.find(record.id);
      assert.notEqual(after.meta.publication_scheduled_at, null);
      assert.equal(after.meta.unpublishing_scheduled_at, null);
    } finally {
      await client.site.update({ locales: ['en'] });
    }
  });
});
