import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildClient, type Client } from '@datocms/cma-client-node';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { createApiToken } from '../support/api-tokens.ts';
import { createTestDatabase } from '../support/databases.ts';
import { buildField, buildModel } from '../support/factories.ts';
import { type FieldhouseProcess, runFieldhouse } from '../support/process.ts';

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

const clientOf = (url: string, apiToken = ADMIN_TOKEN): Client =>
  buildClient({ apiToken, baseUrl: url, autoRetry: false });

/**
 * Whatever a process may keep in memory, a change committed through one API process is
 * what the very next request to another sees: on PostgreSQL two API processes share the
 * database; the embedded database admits one process, whose own changes must show too.
 */
test('a token revoked, a role narrowed, a field or model changed in one process is seen by the next request to another', async () => {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  let writerUrl: string;
  let readerUrl: string;
  if (database.engine === 'postgres') {
    const env = { DATABASE_URL: database.url, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN };
    [writerUrl, readerUrl] = await Promise.all([
      start(['serve', '--role', 'api'], env).listening,
      start(['serve', '--role', 'api'], env).listening,
    ]);
    assert.notEqual(writerUrl, readerUrl);
  } else {
    const env = { FIELDHOUSE_DATA_DIR: database.dataDir, FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN };
    writerUrl = await start(['serve'], env).listening;
    readerUrl = writerUrl;
  }
  const writer = clientOf(writerUrl);
  const reader = clientOf(readerUrl);

  // A model and a field, each read through the reader first (so any cache holds them).
  const model = await buildModel(writer, { api_key: 'article' });
  const field = await buildField(writer, { itemTypeId: model.id, api_key: 'title' });
  assert.equal((await reader.fields.find(field.id)).hint, null);
  assert.equal((await reader.fields.find('article::title')).hint, null);
  assert.deepEqual(
    (await reader.itemTypes.find(model.id)).fields.map((f) => f.id),
    [field.id],
  );

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
});
