import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { type ApiTypes, buildClient, type Client } from '@datocms/cma-client-node';
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, openDatabase } from '../../src/db/client.ts';
import { loadScope } from '../../src/db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../src/db/environment-transaction.ts';
import { authenticate } from '../../src/domain/auth/tokens.ts';
import {
  authCacheOf,
  listCacheOf,
  MAX_KEPT_PAGE_BYTES,
  recordCacheOf,
  schemaCacheOf,
} from '../../src/domain/caches/caches.ts';
import { ValidationFailed } from '../../src/domain/errors.ts';
import { publishInTransaction } from '../../src/domain/items/publishing/publish-item.ts';
import { recordAndContext } from '../../src/domain/items/record-context.ts';
import { cachedModelState, findModelState } from '../../src/domain/schema/model-state.ts';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { createApiToken } from '../support/api-tokens.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/databases.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { itemPermission, tokenWithRole } from '../support/limited-token.ts';
import { type FieldhouseProcess, runFieldhouse } from '../support/process.ts';
import { requestRoundTripsOf } from '../support/round-trips.ts';
import { startTestServer } from '../support/server.ts';

const ADMIN_TOKEN = 'cache-coherence-admin-token-01';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function start(args: string[], env: Record<string, string>): FieldhouseProcess {
  const run = runFieldhouse(args, env);
  cleanups.push(() => run.stop());
  return run;
}

/** An in-process test server, closed after the file's tests. */
async function startServer() {
  const server = await startTestServer();
  cleanups.push(() => server.close());
  return server;
}

const clientOf = (url: string, apiToken = ADMIN_TOKEN): Client =>
  buildClient({ apiToken, baseUrl: url, autoRetry: false });

/**
 * Whatever a process may keep in memory, a change committed through one API process is
 * what the very next request to another sees: on PostgreSQL two API processes share the
 * database; the embedded database admits one process, whose own changes must show too.
 */
/**
 * Two API processes on one new database (PostgreSQL), or the one process the embedded
 * database admits, as the writer and the reader.
 */
async function writerAndReader() {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  if (database.engine === 'postgres') {
    const env = { DATABASE_URL: database.url, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN };
    const [writerUrl, readerUrl] = await Promise.all([
      start(['serve', '--role', 'api'], env).listening,
      start(['serve', '--role', 'api'], env).listening,
    ]);
    assert.notEqual(writerUrl, readerUrl);
    return { database, writerUrl, readerUrl };
  }
  const env = { FIELDHOUSE_DATA_DIR: database.dataDir, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN };
  const url = await start(['serve'], env).listening;
  return { database, writerUrl: url, readerUrl: url };
}

test('a token revoked, a role narrowed, a field or model changed in one process is seen by the next request to another', async () => {
  const { database, writerUrl, readerUrl } = await writerAndReader();
  const writer = clientOf(writerUrl);
  const reader = clientOf(readerUrl);

  // A model and a field, each read through the reader first (so any cache holds them).
  const model = await buildModel(writer, { api_key: 'article', draft_mode_active: true });
  const field = await buildField(writer, { itemTypeId: model.id, api_key: 'title' });
  assert.equal((await reader.fields.find(field.id)).hint, null);
  assert.equal((await reader.fields.find('article::title')).hint, null);
  assert.deepEqual(
    (await reader.itemTypes.find(model.id)).fields.map((f) => f.id),
    [field.id],
  );

  // A change reads first from its own process's cache when kept at the version it read
  // under the lock: one committed through the other process moved that version, so the
  // next change acts on what it left. A refused update keeps what it read; so does a read.
  await rejectsWithApiError(
    writer.fields.update(field.id, { api_key: 'Bad Key' }),
    'INVALID_FIELD',
  );
  await writer.itemTypes.find(model.id);
  await reader.fields.update(field.id, { label: 'Label from B' });
  const updated = await writer.fields.update(field.id, { hint: 'from A' });
  assert.equal(updated.label, 'Label from B');
  assert.equal((await reader.fields.find(field.id)).label, 'Label from B');
  await reader.itemTypes.update(model.id, { hint: 'from B' });
  assert.equal((await writer.itemTypes.update(model.id, { name: 'Article A' })).hint, 'from B');
  assert.equal((await reader.itemTypes.find(model.id)).hint, 'from B');

  await writer.fields.update(field.id, { hint: 'changed' });
  assert.equal((await reader.fields.find(field.id)).hint, 'changed');
  assert.equal((await reader.fields.find('article::title')).hint, 'changed');
  const second = await buildField(writer, { itemTypeId: model.id, api_key: 'body' });
  assert.deepEqual(
    (await reader.itemTypes.find('article')).fields.map((f) => f.id),
    [field.id, second.id],
  );
  await writer.itemTypes.update(model.id, { hint: 'model hint' });
  assert.equal((await reader.itemTypes.find(model.id)).hint, 'model hint');
  await writer.fields.destroy(second.id);
  await rejectsWithApiError(reader.fields.find(second.id), 'NOT_FOUND');

  // A token's rights and its very existence.
  const { token, tokenId, roleId } = await createApiToken(writer, {
    can_edit_schema: true,
    environments_access: 'all',
  });
  const limited = clientOf(readerUrl, token);
  await limited.itemTypes.update(model.id, { hint: 'by the limited token' });
  await writer.roles.update(roleId, { can_edit_schema: false });
  await rejectsWithApiError(
    limited.itemTypes.update(model.id, { hint: 'refused' }),
    'INSUFFICIENT_PERMISSIONS',
  );
  assert.equal((await limited.itemTypes.find(model.id)).hint, 'by the limited token');

  const regenerated = await writer.accessTokens.regenerateToken(tokenId);
  await rejectsWithApiError(limited.itemTypes.list(), 'INVALID_AUTHORIZATION_HEADER');
  const renewed = clientOf(readerUrl, regenerated.token ?? '');
  assert.equal((await renewed.itemTypes.list()).length, 1);
  await writer.accessTokens.destroy(tokenId);
  await rejectsWithApiError(renewed.itemTypes.list(), 'INVALID_AUTHORIZATION_HEADER');

  // A model renamed, and a record read through its model's fields.
  const record = await writer.items.create({
    item_type: itemTypeRef(model.id),
    title: 'Hello',
  });
  assert.equal((await reader.items.find(record.id)).title, 'Hello');
  // The record and the list page kept by the reader, written through the writer: updated,
  // published, gone.
  const listed = async () =>
    (await reader.items.list({ filter: { type: model.id } })).map((row) => [
      row.title,
      row.meta.status,
    ]);
  assert.deepEqual(await listed(), [['Hello', 'draft']]);
  await writer.items.update(record.id, { title: 'Hello again' });
  assert.equal((await reader.items.find(record.id)).title, 'Hello again');
  assert.deepEqual(await listed(), [['Hello again', 'draft']]);
  const other = await writer.items.create({ item_type: itemTypeRef(model.id), title: 'Other' });
  assert.equal((await reader.items.find(other.id)).title, 'Other');
  assert.deepEqual(await listed(), [
    ['Hello again', 'draft'],
    ['Other', 'draft'],
  ]);
  await writer.items.publish(other.id);
  assert.equal((await reader.items.find(other.id)).meta.status, 'published');
  assert.deepEqual(await listed(), [
    ['Hello again', 'draft'],
    ['Other', 'published'],
  ]);
  await writer.items.destroy(other.id);
  await rejectsWithApiError(reader.items.find(other.id), 'NOT_FOUND');
  assert.deepEqual(await listed(), [['Hello again', 'draft']]);
  await writer.itemTypes.update(model.id, { api_key: 'post', name: 'Post' });
  await rejectsWithApiError(reader.itemTypes.find('article'), 'NOT_FOUND');
  assert.equal((await reader.itemTypes.find('post')).name, 'Post');
  await writer.fields.update(field.id, { api_key: 'headline' });
  const reread = await reader.items.find(record.id);
  assert.equal(reread.headline, 'Hello again');
  assert.equal(reread.title, undefined);
  const relisted = await reader.items.list({ filter: { type: model.id } });
  assert.deepEqual(
    relisted.map((row) => [row.headline, row.title]),
    [['Hello again', undefined]],
  );

  if (database.engine !== 'postgres') return;
  // Raw SQL from a third connection, bypassing every process: the triggers move the version.
  await withDatabase(database.url, async (sqlClient) => {
    await sqlClient.query('UPDATE env_1.fields SET hint = $1 WHERE id = $2', ['raw', field.id]);
    assert.equal((await reader.fields.find(field.id)).hint, 'raw');
    await sqlClient.query('UPDATE env_1.item_types SET name = $1 WHERE id = $2', ['Raw', model.id]);
    assert.equal((await reader.itemTypes.find(model.id)).name, 'Raw');
    await sqlClient.query("UPDATE env_1.fields SET api_key = 'raw_key' WHERE id = $1", [field.id]);
    assert.equal((await reader.items.find(record.id)).raw_key, 'Hello again');
    await sqlClient.query(
      `UPDATE env_1.items SET item_values = item_values || jsonb_build_object($1::text, 'Raw title')
        WHERE id = $2`,
      [field.id, record.id],
    );
    assert.equal((await reader.items.find(record.id)).raw_key, 'Raw title');
    const admin = await reader.itemTypes.list();
    await sqlClient.query(
      "UPDATE access_tokens SET can_access_cma = false WHERE hardcoded_type = 'admin'",
    );
    assert.equal(admin.length, 1);
    await rejectsWithApiError(reader.itemTypes.list(), 'INVALID_AUTHORIZATION_HEADER');
  });
});

/**
 * On PostgreSQL a record create or update need not read its token first: it takes the
 * answer its process last read, and its change checks that no token or role changed since
 * (src/domain/auth/assumed-access.ts). Whatever the other process changed shows on the
 * very next write, and a refused write writes nothing.
 */
test('a record write after a token or role changed in another process acts on the token as it is now', async () => {
  const { writerUrl, readerUrl } = await writerAndReader();
  const writer = clientOf(writerUrl);
  const model = await buildModel(writer);
  await buildField(writer, { itemTypeId: model.id, api_key: 'title' });
  // Every action on every model of the primary; positive and negative lists go together.
  const rights = (positive: ApiTypes.RoleCreateSchema['positive_item_type_permissions']) => ({
    positive_item_type_permissions: positive,
    negative_item_type_permissions: [],
  });
  const everything = [
    { action: 'all', environment: 'main', on_creator: 'anyone', localization_scope: 'all' },
  ] as ApiTypes.RoleCreateSchema['positive_item_type_permissions'];
  const { token, tokenId, roleId } = await createApiToken(writer, {
    environments_access: 'all',
    ...rights(everything),
  });
  const limited = clientOf(readerUrl, token);
  const create = (title: string) =>
    limited.items.create({ item_type: itemTypeRef(model.id), title });
  const titles = async () =>
    (await writer.items.list({ filter: { type: model.id }, order_by: 'title_ASC' })).map(
      (record) => record.title,
    );

  await create('1 read afresh');
  const second = await create('2 on the answer last read');
  await writer.roles.update(roleId, rights([]));
  await rejectsWithApiError(create('refused: no right'), 'INSUFFICIENT_PERMISSIONS');
  await rejectsWithApiError(
    limited.items.update(second.id, { title: 'refused: no right' }),
    'INSUFFICIENT_PERMISSIONS',
  );
  await writer.roles.update(roleId, rights(everything));
  await create('3 granted again');
  // A change that leaves the role's rights as they were still moves the access version.
  await writer.roles.update(roleId, { name: 'Renamed' });
  assert.equal((await limited.items.update(second.id, { title: '2 updated' })).title, '2 updated');
  // The schema changed too: the write's entry finds the environment moved and runs again.
  await writer.itemTypes.update(model.id, { hint: 'moved' });
  await create('4 after a schema change');
  await limited.items.destroy((await create('5 destroyed')).id);

  await writer.accessTokens.destroy(tokenId);
  await rejectsWithApiError(create('refused: token gone'), 'INVALID_AUTHORIZATION_HEADER');
  await rejectsWithApiError(
    limited.items.update(second.id, { title: 'refused: token gone' }),
    'INVALID_AUTHORIZATION_HEADER',
  );
  await rejectsWithApiError(limited.items.destroy(second.id), 'INVALID_AUTHORIZATION_HEADER');
  // Refused before the handler runs (a document of the wrong type): the token is read first.
  const wrongType = await fetch(`${readerUrl}/items`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/vnd.api+json',
    },
    body: JSON.stringify({ data: { type: 'item_type', attributes: {} } }),
  });
  assert.equal(wrongType.status, 401);
  assert.deepEqual(await titles(), [
    '1 read afresh',
    '2 updated',
    '3 granted again',
    '4 after a schema change',
  ]);
});

/**
 * The same for the writes of fields, models, fieldsets and menu entries: each is one change
 * that checks the access version, so on PostgreSQL none reads its token first, and a role
 * narrowed or a token destroyed in another process refuses the very next one.
 */
test('a schema or menu write after a token or role changed in another process acts on the token as it is now', async () => {
  const { writerUrl, readerUrl } = await writerAndReader();
  const writer = clientOf(writerUrl);
  const model = await buildModel(writer);
  const field = await buildField(writer, { itemTypeId: model.id, api_key: 'title' });
  const { token, tokenId, roleId } = await createApiToken(writer, {
    environments_access: 'all',
    can_edit_schema: true,
    can_manage_menu: true,
  });
  const editor = clientOf(readerUrl, token);
  const group = (title: string) => editor.fieldsets.create(model.id, { title });

  await group('1 read afresh');
  const second = await group('2 on the answer last read');
  await writer.roles.update(roleId, { can_edit_schema: false });
  await rejectsWithApiError(group('refused: no right'), 'INSUFFICIENT_PERMISSIONS');
  await rejectsWithApiError(editor.fields.destroy(field.id), 'INSUFFICIENT_PERMISSIONS');
  await rejectsWithApiError(editor.itemTypes.duplicate(model.id), 'INSUFFICIENT_PERMISSIONS');
  // The menu right stands.
  const entry = await editor.menuItems.create({ label: 'Entry' });
  await writer.roles.update(roleId, { can_edit_schema: true });
  const copy = await editor.fields.duplicate(field.id);

  await writer.accessTokens.destroy(tokenId);
  await rejectsWithApiError(editor.fieldsets.destroy(second.id), 'INVALID_AUTHORIZATION_HEADER');
  await rejectsWithApiError(editor.fields.destroy(copy.id), 'INVALID_AUTHORIZATION_HEADER');
  await rejectsWithApiError(editor.itemTypes.destroy(model.id), 'INVALID_AUTHORIZATION_HEADER');
  await rejectsWithApiError(editor.menuItems.destroy(entry.id), 'INVALID_AUTHORIZATION_HEADER');
  // Nothing refused was written.
  assert.deepEqual((await writer.fieldsets.list(model.id)).map(({ title }) => title).sort(), [
    '1 read afresh',
    '2 on the answer last read',
  ]);
  assert.deepEqual(
    (await writer.fields.list(model.id)).map(({ id }) => id),
    [field.id, copy.id],
  );
  assert.equal((await writer.itemTypes.list()).length, 1);
  assert.ok((await writer.menuItems.list()).some(({ id }) => id === entry.id));
});

async function withDatabase(url: string, fn: (client: pg.Client) => Promise<void>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

/** A record's value of one field set by raw SQL, as any writer outside the API would. */
function rawValue(recordId: string, fieldId: string, value: string) {
  return sql`UPDATE env_1.items SET item_values = item_values || jsonb_build_object(${fieldId}::text, ${value}::text)
    WHERE id = ${recordId}`;
}

/**
 * Runs `run` with one of `env_1.items`' triggers disabled: what the trigger keeps the
 * caches right about goes unseen, which shows the cache is used and the trigger needed.
 */
async function withoutItemsTrigger(db: Db, trigger: string, run: () => Promise<void>) {
  await sql`ALTER TABLE env_1.items DISABLE TRIGGER ${sql.id(trigger)}`.execute(db);
  try {
    await run();
  } finally {
    await sql`ALTER TABLE env_1.items ENABLE TRIGGER ${sql.id(trigger)}`.execute(db);
  }
}

/** Where the server's primary environment's schema version stands. */
async function schemaVersion(db: Db, environmentId = 'main'): Promise<string> {
  const row = await db
    .selectFrom('environments')
    .select('schema_version')
    .where('id', '=', environmentId)
    .executeTakeFirstOrThrow();
  return row.schema_version;
}

test('raw SQL through the server database handle is seen by the next request; a rollback changes nothing', async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'note' });
  const field = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const record = await client.items.create({
    item_type: itemTypeRef(model.id),
    title: 'Hi',
  });
  const { token, tokenId } = await createApiToken(client, {
    can_edit_schema: true,
    environments_access: 'all',
  });
  const limited = server.client({ apiToken: token });
  await limited.itemTypes.update(model.id, { hint: 'allowed' });
  assert.equal((await client.fields.find(field.id)).hint, null);
  assert.equal((await client.items.find(record.id)).title, 'Hi');

  // A rolled-back change: its triggers ran, but neither the version nor the rows moved.
  const before = await schemaVersion(server.db);
  const cached = schemaCacheOf(server.db).size(1);
  assert.ok(cached > 0);
  await assert.rejects(
    server.db.transaction().execute(async (trx) => {
      await sql`UPDATE env_1.fields SET hint = 'rolled back' WHERE id = ${field.id}`.execute(trx);
      await sql`UPDATE access_tokens SET can_access_cma = false WHERE id = ${tokenId}`.execute(trx);
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.equal(await schemaVersion(server.db), before);
  assert.equal(schemaCacheOf(server.db).size(1), cached);
  if (server.config.databaseUrl === null) assert.ok((authCacheOf(server.db)?.size ?? 0) > 0);
  assert.equal((await client.fields.find(field.id)).hint, null);
  assert.equal((await limited.itemTypes.find(model.id)).hint, 'allowed');

  // Committed raw changes: each is seen by the very next request.
  await sql`UPDATE env_1.fields SET hint = 'raw' WHERE id = ${field.id}`.execute(server.db);
  assert.notEqual(await schemaVersion(server.db), before);
  assert.equal((await client.fields.find(field.id)).hint, 'raw');
  assert.equal((await client.fields.find('note::title')).hint, 'raw');
  await sql`UPDATE env_1.item_types SET name = 'Raw name' WHERE id = ${model.id}`.execute(
    server.db,
  );
  assert.equal((await client.itemTypes.find('note')).name, 'Raw name');
  assert.equal((await client.itemTypes.list()).find((m) => m.id === model.id)?.name, 'Raw name');
  await sql`UPDATE env_1.fields SET api_key = 'headline' WHERE id = ${field.id}`.execute(server.db);
  assert.equal((await client.items.find(record.id)).headline, 'Hi');
  assert.deepEqual(
    (await client.fields.list(model.id)).map((f) => f.api_key),
    ['headline'],
  );
  await sql`UPDATE roles SET attributes = attributes || '{"can_edit_schema": false}'
    WHERE id = (SELECT role_id FROM access_tokens WHERE id = ${tokenId})`.execute(server.db);
  await rejectsWithApiError(
    limited.itemTypes.update(model.id, { hint: 'refused' }),
    'INSUFFICIENT_PERMISSIONS',
  );
  await sql`DELETE FROM access_tokens WHERE id = ${tokenId}`.execute(server.db);
  await rejectsWithApiError(limited.itemTypes.list(), 'INVALID_AUTHORIZATION_HEADER');
});

/**
 * Records read by id are kept at the records version a request reads with its token; a
 * trigger moves the version with every statement that writes records, whatever sent it.
 */
test('a record read by id is kept at its records version, and every committed write is seen by the next read', async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'memo' });
  const field = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'One' });
  assert.equal((await client.items.find(record.id)).title, 'One');
  const records = recordCacheOf(server.db);
  assert.equal(records.size, 1);
  const setTitle = (title: string) => rawValue(record.id, field.id, title);

  // A rolled-back write changes neither the record nor what is kept.
  await assert.rejects(
    server.db.transaction().execute(async (trx) => {
      await setTitle('rolled back').execute(trx);
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.equal(records.size, 1);
  assert.equal((await client.items.find(record.id)).title, 'One');

  // Raw SQL, the API's writes and a schema change that rewrites records: each is seen next.
  await setTitle('Raw').execute(server.db);
  assert.equal((await client.items.find(record.id)).title, 'Raw');
  await client.items.update(record.id, { title: 'Two' });
  assert.equal((await client.items.find(record.id)).title, 'Two');
  await client.items.publish(record.id);
  assert.equal((await client.items.find(record.id)).meta.status, 'published');
  const added = await buildField(client, {
    itemTypeId: model.id,
    api_key: 'subtitle',
    default_value: 'Default',
  });
  assert.equal((await client.items.find(record.id)).subtitle, 'Default');
  await client.fields.destroy(added.id);
  assert.equal((await client.items.find(record.id)).subtitle, undefined);
  await client.items.destroy(record.id);
  await rejectsWithApiError(client.items.find(record.id), 'NOT_FOUND');

  // A large record is served but not kept.
  const large = await client.items.create({
    item_type: itemTypeRef(model.id),
    title: randomBytes(48 * 1024).toString('base64'),
  });
  const sizeBefore = records.size;
  assert.equal(String((await client.items.find(large.id)).title).length, 65_536);
  assert.equal(records.size, sizeBefore);

  // What is kept is what the next read gets: without the trigger it would be stale.
  const small = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Kept' });
  assert.equal((await client.items.find(small.id)).title, 'Kept');
  await withoutItemsTrigger(server.db, 'records_changed', async () => {
    await rawValue(small.id, field.id, 'Unannounced').execute(server.db);
    assert.equal((await client.items.find(small.id)).title, 'Kept');
  });
  await sql`UPDATE env_1.items SET updated_at = updated_at WHERE id = ${small.id}`.execute(
    server.db,
  );
  assert.equal((await client.items.find(small.id)).title, 'Unannounced');

  // After writes to other records the row is read again, and the kept one serves while
  // its stamp is the same: without the stamp's trigger, a write to it would not be seen.
  await withoutItemsTrigger(server.db, 'restamp', async () => {
    await rawValue(small.id, field.id, 'Unstamped').execute(server.db);
    assert.equal((await client.items.find(small.id)).title, 'Unannounced');
  });
  await client.items.create({ item_type: itemTypeRef(model.id), title: 'Elsewhere' });
  assert.equal((await client.items.find(small.id)).title, 'Unannounced');
  await sql`UPDATE env_1.items SET updated_at = updated_at WHERE id = ${small.id}`.execute(
    server.db,
  );
  assert.equal((await client.items.find(small.id)).title, 'Unstamped');
});

test('a list page asked twice is kept at its records version, and every committed write is seen by the next list', async () => {
  const server = await startServer();
  const client = server.client();
  const lists = listCacheOf(server.db);
  const model = await buildModel(client, { api_key: 'note', draft_mode_active: true });
  const field = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const first = await client.items.create({ item_type: itemTypeRef(model.id), title: 'One' });
  /** A page asked twice: kept by then, unless large; both answers the same. */
  const listTwice = async (params: ApiTypes.ItemInstancesHrefSchema & { nested?: false }) => {
    const once = await client.items.list(params);
    const twice = await client.items.list(params);
    assert.deepEqual(twice, once);
    return twice;
  };
  const query = { filter: { type: model.id, fields: { title: { neq: 'none' } } } };
  const titles = async () => (await listTwice(query)).map((record) => record.title);

  // Asked once, a page is not kept; asked twice, it is, and the next ask sends no
  // statement beside the token's.
  await client.items.list(query);
  assert.equal(lists.size, 0);
  assert.deepEqual(await titles(), ['One']);
  assert.equal(lists.size, 1);
  const sent = await requestRoundTripsOf(() => client.items.list(query));
  assert.deepEqual(
    sent.filter((text) => !text.includes('access_tokens')),
    [],
  );

  // Raw SQL, the API's writes and a schema change: each is seen by the next list.
  await rawValue(first.id, field.id, 'Raw').execute(server.db);
  assert.deepEqual(await titles(), ['Raw']);
  const second = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Two' });
  assert.deepEqual(await titles(), ['Raw', 'Two']);
  await client.items.publish(second.id);
  assert.deepEqual(
    (await listTwice(query)).map((record) => record.meta.status),
    ['draft', 'published'],
  );
  // Renamed, the field is no longer filtered by its old name, and the same page, kept at
  // the same records version (a rename rewrites no record), shows the new one.
  const byModel = { filter: { type: model.id } };
  assert.deepEqual(
    (await listTwice(byModel)).map((record) => record.title),
    ['Raw', 'Two'],
  );
  await client.fields.update(field.id, { api_key: 'headline' });
  await rejectsWithApiError(client.items.list(query), 'INVALID_FILTER_FIELDS_PARAM');
  assert.deepEqual(
    (await listTwice(byModel)).map((record) => [record.title, record.headline]),
    [
      [undefined, 'Raw'],
      [undefined, 'Two'],
    ],
  );
  await client.items.destroy(first.id);
  assert.deepEqual(
    (await listTwice(byModel)).map((record) => record.id),
    [second.id],
  );

  // What is kept is what the next list gets: without the trigger it would be stale.
  const kept = await listTwice(byModel);
  await withoutItemsTrigger(server.db, 'records_changed', async () => {
    await sql`DELETE FROM env_1.items WHERE id = ${second.id}`.execute(server.db);
    assert.deepEqual(await client.items.list(byModel), kept);
  });
  await sql`UPDATE env_1.items SET updated_at = updated_at WHERE false`.execute(server.db);
  assert.deepEqual(await client.items.list(byModel), []);

  // A role reading through its permissions reads afresh; a large page is served, not kept.
  const other = await buildModel(client, { api_key: 'other' });
  const { token } = await tokenWithRole(server.db, {
    positive_item_type_permissions: [itemPermission('read', { item_type: model.id })],
  });
  const limited = server.client({ apiToken: token });
  await client.items.create({ item_type: itemTypeRef(other.id) });
  const large = await client.items.create({
    item_type: itemTypeRef(model.id),
    headline: randomBytes(MAX_KEPT_PAGE_BYTES).toString('base64'),
  });
  // A page kept at this version first: what is kept of older ones is gone by then.
  assert.equal((await listTwice({ filter: { type: other.id } })).length, 1);
  const sizeBefore = lists.size;
  const readable = await limited.items.list();
  assert.deepEqual(
    readable.map((record) => record.id),
    [large.id],
  );
  assert.deepEqual(await limited.items.list(), readable);
  assert.equal((await listTwice(byModel))[0]?.id, large.id);
  assert.equal(lists.size, sizeBefore);
  assert.equal((await listTwice({ filter: { type: other.id }, page: { limit: 5 } })).length, 1);
  assert.equal(lists.size, sizeBefore + 1);
});

test("a tree record's row serves again by its stamp, but whether it has children is read anew", async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'page', tree: true });
  await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const root = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Root' });
  const hasChildren = async () => ({
    found: (await client.items.find(root.id)).meta.has_children,
    listed: (await client.items.list({ filter: { type: model.id } })).find(
      (record) => record.id === root.id,
    )?.meta.has_children,
  });
  assert.deepEqual(await hasChildren(), { found: false, listed: false });
  assert.deepEqual(await hasChildren(), { found: false, listed: false });
  // A child names the root: the root's row (and stamp) stay as they were.
  await client.items.create({
    item_type: itemTypeRef(model.id),
    title: 'Leaf',
    parent_id: root.id,
  });
  assert.deepEqual(await hasChildren(), { found: true, listed: true });
});

/**
 * A list keeps the rows it reads by the stamp the database gives each version of a row
 * (a row trigger moves it with every write, raw SQL included): after writes elsewhere,
 * the next list reads only the rows whose stamps moved.
 */
test("a listed record's row is kept at its stamp: the next list reads only what moved, and sees every write", async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'note' });
  const field = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const other = await buildModel(client, { api_key: 'other' });
  const [first, second] = [
    await client.items.create({ item_type: itemTypeRef(model.id), title: 'One' }),
    await client.items.create({ item_type: itemTypeRef(model.id), title: 'Two' }),
  ];
  // A filter, so the page is read, not counted from the kept counts.
  const query = { filter: { type: model.id, fields: { title: { neq: 'none' } } } };
  const listed = async () => {
    let titles: unknown[] = [];
    const sent = await requestRoundTripsOf(async () => {
      titles = (await client.items.list(query)).map((record) => record.title);
    });
    return { titles, statements: sent.filter((text) => !text.includes('access_tokens')) };
  };
  const rowsRead = (statements: string[]) =>
    statements.filter((text) => text.includes('json_agg')).length;

  assert.deepEqual((await listed()).titles, ['One', 'Two']);
  // Another record written: the page is read again (its records version moved), its rows
  // are not.
  await client.items.create({ item_type: itemTypeRef(other.id) });
  const unchanged = await listed();
  assert.deepEqual(unchanged.titles, ['One', 'Two']);
  assert.deepEqual([unchanged.statements.length, rowsRead(unchanged.statements)], [1, 0]);

  // One of them written, through the API and by raw SQL: that row alone is read again.
  await client.items.update(second.id, { title: 'Two again' });
  const updated = await listed();
  assert.deepEqual(updated.titles, ['One', 'Two again']);
  assert.equal(rowsRead(updated.statements), 1);
  await rawValue(first.id, field.id, 'Raw').execute(server.db);
  assert.deepEqual((await listed()).titles, ['Raw', 'Two again']);

  // A schema change rewrites no row here, but the views are made anew at its version.
  await client.fields.update(field.id, { api_key: 'headline' });
  const renamed = await client.items.list({ filter: { type: model.id } });
  assert.deepEqual(
    renamed.map((record) => [record.title, record.headline]),
    [
      [undefined, 'Raw'],
      [undefined, 'Two again'],
    ],
  );

  // What is kept is what the next list gets: without the stamp's trigger it would be stale.
  const headlines = async () =>
    (
      await client.items.list({ filter: { type: model.id, fields: { headline: { neq: 'x' } } } })
    ).map((record) => record.headline);
  assert.deepEqual(await headlines(), ['Raw', 'Two again']);
  await withoutItemsTrigger(server.db, 'restamp', async () => {
    await rawValue(first.id, field.id, 'Unstamped').execute(server.db);
    assert.deepEqual(await headlines(), ['Raw', 'Two again']);
  });
  await sql`UPDATE env_1.items SET updated_at = updated_at WHERE id = ${first.id}`.execute(
    server.db,
  );
  assert.deepEqual(await headlines(), ['Unstamped', 'Two again']);
});

/**
 * A create names its creator from the token its request authenticated with, which the
 * embedded process keeps between requests: a change to the token must reach it.
 */
test("a record's creator is its caller's token as it is now: renamed, the next create names it anew", async () => {
  const server = await startServer();
  const admin = server.client();
  const model = await buildModel(admin);
  await buildField(admin, { itemTypeId: model.id, api_key: 'title' });
  const { token, tokenId } = await tokenWithRole(server.db, {
    positive_item_type_permissions: [itemPermission('all')],
  });
  const caller = server.client({ apiToken: token });
  /** The name the create event of a record gives its creator. */
  const creatorNamed = async (title: string) => {
    const record = await caller.items.create({ item_type: itemTypeRef(model.id), title });
    assert.equal(record.creator?.id, tokenId);
    const event = await server.db
      .selectFrom('events')
      .select('related_entities')
      .where('entity_id', '=', record.id)
      .where('event_type', '=', 'create')
      .executeTakeFirstOrThrow();
    const related = event.related_entities as { type: string; attributes: { name: string } }[];
    return related.find((entity) => entity.type === 'access_token')?.attributes.name;
  };
  const before = await admin.accessTokens.find(tokenId);
  assert.equal(await creatorNamed('first'), before.name);
  await admin.accessTokens.update(tokenId, {
    name: 'Renamed importer',
    can_access_cda: before.can_access_cda,
    can_access_cda_preview: before.can_access_cda_preview,
    can_access_cma: true,
  });
  assert.equal(await creatorNamed('second'), 'Renamed importer');
});

/**
 * What is made of a kept record is kept with it (viewedOnce), per schema version
 * and per way of reading it: a schema change that writes no record still shows next.
 */
test('a kept record is presented anew after a schema change, and per version read', async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'shown', draft_mode_active: true });
  const field = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'One' });
  await client.items.publish(record.id);
  await client.items.update(record.id, { title: 'Two' });

  // The same kept row, read as current and as published, answers each.
  assert.equal((await client.items.find(record.id)).title, 'Two');
  assert.equal((await client.items.find(record.id, { version: 'published' })).title, 'One');
  assert.equal((await client.items.find(record.id)).title, 'Two');
  assert.equal(recordCacheOf(server.db).size, 1);

  // Renaming a field rewrites no record: the row stays kept, its presentation must not.
  await client.fields.update(field.id, { api_key: 'headline' });
  const renamed = await client.items.find(record.id);
  assert.equal(renamed.headline, 'Two');
  assert.equal(renamed.title, undefined);
  assert.equal((await client.items.find(record.id, { version: 'published' })).headline, 'One');
});

/**
 * A change reads first from the caches at the version it read under the environment's lock:
 * whatever a read kept before a raw SQL change, the change acts on what the database holds,
 * and once it has sent a statement it reads the database, its own writes included.
 */
test('a change acts on the state it finds under the lock, and reads its own writes', async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'memo', name: 'Memo' });
  const title = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  await buildField(client, { itemTypeId: model.id, api_key: 'body' });
  const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'One' });

  // Each kept first (a refused update, a read), then changed by raw SQL, then changed.
  await rejectsWithApiError(
    client.fields.update(title.id, { api_key: 'Bad Key' }),
    'INVALID_FIELD',
  );
  await sql`UPDATE env_1.fields SET label = 'Raw label' WHERE id = ${title.id}`.execute(server.db);
  assert.equal((await client.fields.update(title.id, { hint: 'after' })).label, 'Raw label');
  assert.equal((await client.fields.find(title.id)).label, 'Raw label');
  await client.itemTypes.find(model.id);
  await sql`UPDATE env_1.item_types SET name = 'Raw name' WHERE id = ${model.id}`.execute(
    server.db,
  );
  assert.equal((await client.itemTypes.update(model.id, { hint: 'after' })).name, 'Raw name');
  assert.equal((await client.itemTypes.find(model.id)).name, 'Raw name');
  assert.equal((await client.items.find(record.id)).title, 'One');
  const setTitle = (value: string) => rawValue(record.id, title.id, value);
  await setTitle('Raw').execute(server.db);
  const updated = await client.items.update(record.id, { body: 'Two' });
  assert.deepEqual([updated.title, updated.body], ['Raw', 'Two']);
  assert.equal((await client.items.find(record.id)).title, 'Raw');

  // In one transaction: the caches until its first statement (a prepared read here), then
  // the database, which holds its own writes.
  await client.itemTypes.find(model.id);
  assert.equal((await client.items.find(record.id)).title, 'Raw');
  const scope = await loadScope(server.db);
  const version = await schemaVersion(server.db);
  const rollBack = new Error('roll back');
  await assert.rejects(
    inEnvironmentTransaction(scope, async (tx) => {
      assert.deepEqual(tx.atEntry(), { pool: server.db, version });
      await findModelState(tx.db, model.id);
      assert.equal(tx.atEntry(), null);
      await sql`UPDATE env_1.item_types SET name = 'Own write' WHERE id = ${model.id}`.execute(
        tx.db,
      );
      assert.equal((await cachedModelState(tx, model.id)).itemType.name, 'Own write');
      throw rollBack;
    }),
    (error) => error === rollBack,
  );
  await assert.rejects(
    inEnvironmentTransaction(
      scope,
      async (tx) => {
        await setTitle('Own write').execute(tx.db);
        assert.equal(tx.atEntry(), null);
        const found = await recordAndContext(tx, record.id);
        assert.equal(found?.row.item_values[title.id], 'Own write');
        throw rollBack;
      },
      RECORD_CHANGE,
    ),
    (error) => error === rollBack,
  );
  // Rolled back: what was kept before is still what the database holds.
  assert.equal((await client.itemTypes.find(model.id)).name, 'Raw name');
  assert.equal((await client.items.find(record.id)).title, 'Raw');
  assert.equal((await client.items.update(record.id, { body: 'Three' })).title, 'Raw');
});

/** A record write's refusal: its INVALID_FIELD details' code for `field`. */
async function refusal(write: Promise<unknown>, field: string): Promise<string | undefined> {
  const error = apiError(
    await write.then(
      () => assert.fail('the write was accepted'),
      (e) => e,
    ),
  );
  return error.findError('INVALID_FIELD', { field })?.attributes.details.code as string | undefined;
}

/**
 * Record writes take their model's context from the schema cache, at the version read
 * under the environment's lock: a schema change committed before the write, through the
 * API or by raw SQL, is what the write validates against and acts on.
 */
test('a record write right after a schema change is checked against the new schema', async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'memo' });
  const title = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const item_type = { type: 'item_type' as const, id: model.id };
  // Each write keeps the model's context at the version it read; the second is served it.
  const record = await client.items.create({ item_type, title: 'Hello there' });
  assert.ok(schemaCacheOf(server.db).size(1) > 0);
  await client.items.update(record.id, { title: 'Hello again' });
  await client.items.publish(record.id);

  // A validator added through the API.
  await client.fields.update(title.id, { validators: { length: { max: 5 } } });
  assert.equal(
    await refusal(client.items.update(record.id, { title: 'far too long' }), 'title'),
    'VALIDATION_LENGTH',
  );
  assert.equal(
    await refusal(client.items.create({ item_type, title: 'far too long' }), 'title'),
    'VALIDATION_LENGTH',
  );
  // The record saved before the validator is invalid now: publishing it checks it.
  assert.equal(await refusal(client.items.publish(record.id), 'title'), 'VALIDATION_LENGTH');
  await client.items.update(record.id, { title: 'Short' });

  // Raw SQL through the server's own database handle, bypassing the API.
  await sql`UPDATE env_1.fields SET validators = '{"required": {}}' WHERE id = ${title.id}`.execute(
    server.db,
  );
  assert.equal(await refusal(client.items.create({ item_type }), 'title'), 'VALIDATION_REQUIRED');
  assert.equal(
    await refusal(client.items.update(record.id, { title: null }), 'title'),
    'VALIDATION_REQUIRED',
  );
  await sql`UPDATE env_1.item_types SET draft_mode_active = true WHERE id = ${model.id}`.execute(
    server.db,
  );
  // In draft mode an update no longer publishes: the record has unpublished changes.
  const updated = await client.items.update(record.id, { title: 'Draft' });
  assert.equal(updated.meta.status, 'updated');
  await sql`UPDATE env_1.fields SET api_key = 'headline' WHERE id = ${title.id}`.execute(server.db);
  const renamed = await client.items.update(record.id, { headline: 'Again' } as never);
  assert.equal(renamed.headline, 'Again');
});

/**
 * A change that writes schema rows and then acts on records in the same transaction (a
 * field's records refreshed, say) reads the schema as its own writes left it, even where
 * the cache holds the model at the version the transaction read under the lock.
 */
test('a transaction that changes the schema never acts on records with a cached context', async () => {
  const server = await startServer();
  const client = server.client();
  const model = await buildModel(client, { api_key: 'memo' });
  const title = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  const record = await client.items.create({
    item_type: itemTypeRef(model.id),
    title: 'Hello there',
  });
  // Kept in the cache at the version the transaction below reads under the lock.
  await client.items.publish(record.id);
  await client.items.unpublish(record.id);
  const scope = await loadScope(server.db);
  const version = await schemaVersion(server.db);

  await assert.rejects(
    inEnvironmentTransaction(scope, async (tx) => {
      assert.equal(tx.schemaAt, null);
      await sql`UPDATE env_1.fields SET validators = '{"length": {"max": 5}}' WHERE id = ${title.id}`.execute(
        tx.db,
      );
      await sql`UPDATE env_1.items SET current_valid = false WHERE id = ${record.id}`.execute(
        tx.db,
      );
      await publishInTransaction(tx, record.id);
    }),
    (error) => error instanceof ValidationFailed && error.issues[0]?.code === 'VALIDATION_LENGTH',
  );
  // A record change reads the cache at the version it read under the lock.
  await inEnvironmentTransaction(
    scope,
    async (tx) => {
      assert.equal(tx.schemaAt?.version, version);
      assert.equal(tx.schemaAt?.pool, server.db);
    },
    RECORD_CHANGE,
  );
  assert.equal((await client.items.publish(record.id)).meta.status, 'published');
});

test('a destroyed, renamed or promoted environment is never answered from what was cached', async () => {
  const server = await startServer();
  const admin = server.client();
  const model = await buildModel(admin, { api_key: 'page', hint: 'in main' });
  await admin.environments.fork('main', { id: 'side' });
  const side = server.client({ environment: 'side' });
  assert.equal((await side.itemTypes.find('page')).hint, 'in main');
  await side.itemTypes.update(model.id, { hint: 'in side' });
  assert.equal((await side.itemTypes.find('page')).hint, 'in side');
  assert.equal((await admin.itemTypes.find('page')).hint, 'in main');

  await admin.environments.rename('side', { id: 'renamed' });
  await rejectsWithApiError(side.itemTypes.find('page'), 'INVALID_ENVIRONMENT');
  const renamed = server.client({ environment: 'renamed' });
  assert.equal((await renamed.itemTypes.find('page')).hint, 'in side');

  await admin.environments.promote('renamed');
  assert.equal((await admin.itemTypes.find('page')).hint, 'in side');
  const old = server.client({ environment: 'main' });
  assert.equal((await old.itemTypes.find('page')).hint, 'in main');

  await admin.environments.destroy('main');
  await rejectsWithApiError(old.itemTypes.find('page'), 'INVALID_ENVIRONMENT');
  await rejectsWithApiError(old.fields.list(model.id), 'INVALID_ENVIRONMENT');
});

// PostgreSQL processes read the version with every request instead of listening.
if (TEST_ENGINE === 'embedded') {
  test('embedded: a NOTIFY reaches the process before the committing statement returns, and only at commit', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    assert.equal(database.engine, 'embedded');
    const handle = await openDatabase({
      databaseUrl: null,
      dataDir: database.dataDir,
      dbPoolSize: 1,
    });
    cleanups.push(() => handle.close());
    const payloads: string[] = [];
    await handle.listenInProcess?.('fieldhouse_cache', (payload) => payloads.push(payload));
    const { db } = handle;

    // A schema change names its environment's schema and the version it moved to.
    await sql`UPDATE env_1.site_settings SET timezone = timezone`.execute(db);
    const first = await schemaVersion(db);
    assert.deepEqual(payloads, [`env_1:${first}`]);

    await db.transaction().execute(async (trx) => {
      await sql`UPDATE roles SET name = name`.execute(trx);
      await sql`UPDATE env_1.item_types SET hint = hint`.execute(trx);
      assert.equal(payloads.length, 1, 'nothing is announced before the commit');
    });
    const second = await schemaVersion(db);
    assert.ok(BigInt(second) > BigInt(first));
    assert.deepEqual(payloads, [`env_1:${first}`, 'roles', `env_1:${second}`]);

    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`UPDATE access_tokens SET can_access_cma = can_access_cma`.execute(trx);
        throw new Error('roll back');
      }),
    );
    // A token's last-use stamp and an environment's last-change stamp announce nothing.
    await sql`UPDATE access_tokens SET last_cma_access_at = now()`.execute(db);
    await sql`UPDATE environments SET last_data_change_at = now()`.execute(db);
    assert.deepEqual(payloads, [`env_1:${first}`, 'roles', `env_1:${second}`]);
  });

  test('embedded: after a schema change or a record write the next request reads no token, and works at the new version', async () => {
    const server = await startServer();
    const client = server.client();
    const model = await buildModel(client);
    const field = await buildField(client, { itemTypeId: model.id });
    await client.fields.find(field.id);

    await client.fields.update(field.id, { hint: 'moved' });
    const sent = await requestRoundTripsOf(async () => {
      assert.equal((await client.fields.find(field.id)).hint, 'moved');
    });
    assert.ok(!sent.some((text) => text.includes('access_tokens')), sent.join('\n'));
    const authenticated = await authenticate(server.db, server.adminToken, null);
    assert.equal(authenticated?.environment?.schema_version, await schemaVersion(server.db));
    // The field's document was loaded once at the new version, and is kept there.
    assert.deepEqual(await requestRoundTripsOf(() => client.fields.find(field.id)), []);

    // A record write moves the records version the same way: the next read loads the
    // record alone, and the one after reads nothing.
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    await client.items.find(record.id);
    await client.items.update(record.id, { [field.api_key]: 'written' });
    const afterWrite = await requestRoundTripsOf(() => client.items.find(record.id));
    assert.equal(afterWrite.length, 1, afterWrite.join('\n'));
    assert.match(afterWrite[0] ?? '', /from "env_1"\."items"/);
    assert.deepEqual(await requestRoundTripsOf(() => client.items.find(record.id)), []);
    const { records_version } = await server.db
      .selectFrom('environments')
      .select(sql<string>`fieldhouse_records_version(schema_name)::text`.as('records_version'))
      .where('is_primary', '=', true)
      .executeTakeFirstOrThrow();
    const current = await authenticate(server.db, server.adminToken, null);
    assert.equal(current?.environment?.records_version, records_version);

    // An access change still drops what tokens authenticated to.
    await sql`UPDATE roles SET name = name`.execute(server.db);
    const again = await requestRoundTripsOf(() => client.fields.find(field.id));
    assert.ok(
      again.some((text) => text.includes('access_tokens')),
      again.join('\n'),
    );
  });
}
