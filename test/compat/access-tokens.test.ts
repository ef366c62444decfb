import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { lastAccessBucket } from '../../src/domain/auth/last-access.ts';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { createApiToken } from '../support/api-tokens.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const admin = server.client();
let roleId: string;
before(async () => {
  roleId = (await admin.roles.create({ name: 'Reader', environments_access: 'all' })).id;
});

function newToken(name: string, overrides: { role?: string; can_access_cma?: boolean } = {}) {
  return admin.accessTokens.create({
    name,
    can_access_cda: true,
    can_access_cda_preview: false,
    can_access_cma: overrides.can_access_cma ?? true,
    role: { type: 'role', id: overrides.role ?? roleId },
  });
}

/** Can this secret call the CMA? */
async function works(secret: string): Promise<boolean> {
  const response = await server.request('GET', '/item-types', undefined, {
    authorization: `Bearer ${secret}`,
  });
  return response.status === 200;
}

describe('access tokens through the official client', () => {
  test('the bootstrap token is listed, built-in, with its secret hidden', async () => {
    const tokens = await admin.accessTokens.list();
    const builtIn = tokens.find((token) => token.hardcoded_type !== null);
    assert.ok(builtIn);
    assert.equal(builtIn.hardcoded_type, 'admin');
    assert.equal(builtIn.token, null);
    assert.equal(builtIn.can_access_cma, true);
    assert.equal(builtIn.last_cma_access, 'today', 'this very call used it');
    assert.equal(builtIn.last_cda_access, 'never');
    assert.equal(builtIn.role?.type, 'role');
  });

  test('the secret comes with the create response only, and it authenticates', async () => {
    const created = await newToken('Frontend');
    assert.match(created.id, /^\d+$/);
    assert.equal(typeof created.token, 'string');
    assert.equal(created.name, 'Frontend');
    assert.equal(created.can_access_cda, true);
    assert.equal(created.can_access_cda_preview, false);
    assert.equal(created.hardcoded_type, null);
    assert.equal(created.last_cma_access, 'never');
    assert.deepEqual(created.role, { type: 'role', id: roleId });

    const found = await admin.accessTokens.find(created.id);
    assert.equal(found.token, null);
    assert.equal((await admin.accessTokens.list()).find((t) => t.id === created.id)?.token, null);

    assert.ok(await works(created.token as string));
    assert.equal((await admin.accessTokens.find(created.id)).last_cma_access, 'today');
  });

  test('update changes the attributes and the role', async () => {
    const created = await newToken('Build');
    const other = await admin.roles.create({ name: 'Other', environments_access: 'all' });
    const updated = await admin.accessTokens.update(created.id, {
      name: 'Build server',
      can_access_cda: false,
      can_access_cda_preview: true,
      can_access_cma: true,
      role: { type: 'role', id: other.id },
    });
    assert.equal(updated.name, 'Build server');
    assert.equal(updated.can_access_cda, false);
    assert.equal(updated.can_access_cda_preview, true);
    assert.deepEqual(updated.role, { type: 'role', id: other.id });
    assert.equal(updated.token, null);

    const sameRole = await admin.accessTokens.update(created.id, {
      name: 'Build server',
      can_access_cda: false,
      can_access_cda_preview: false,
      can_access_cma: false,
    });
    assert.deepEqual(sameRole.role, { type: 'role', id: other.id }, 'an omitted role is kept');
    assert.equal(await works(created.token as string), false, 'no CMA access any more');
  });

  test('built-in tokens cannot be edited, but can be regenerated', async () => {
    const created = await newToken('Read-only');
    await server.db
      .updateTable('access_tokens')
      .set({ hardcoded_type: 'readonly' })
      .where('id', '=', created.id)
      .execute();
    await rejectsWithApiError(
      admin.accessTokens.update(created.id, {
        name: 'Renamed',
        can_access_cda: true,
        can_access_cda_preview: false,
        can_access_cma: true,
      }),
      'NON_EDITABLE_ACCESS_TOKEN',
    );
    const regenerated = await admin.accessTokens.regenerateToken(created.id);
    assert.equal(regenerated.hardcoded_type, 'readonly');
    assert.ok(await works(regenerated.token as string));
  });

  test('regenerating invalidates the old secret at once', async () => {
    const created = await newToken('Rotated');
    assert.ok(await works(created.token as string));
    const regenerated = await admin.accessTokens.regenerateToken(created.id);
    assert.equal(regenerated.id, created.id);
    assert.equal(typeof regenerated.token, 'string');
    assert.notEqual(regenerated.token, created.token);
    assert.equal(await works(created.token as string), false);
    assert.ok(await works(regenerated.token as string));
  });

  test('names are required and unique regardless of case; the role must exist', async () => {
    await newToken('Preview');
    await rejectsWithApiError(newToken('PREVIEW'), 'INVALID_FIELD', {
      field: 'name',
      code: 'VALIDATION_UNIQUENESS',
      record_type: 'AccessToken',
    });
    await rejectsWithApiError(newToken(' '), 'INVALID_FIELD', {
      field: 'name',
      code: 'VALIDATION_REQUIRED',
    });
    await rejectsWithApiError(newToken('Orphan', { role: '999999' }), 'INVALID_FIELD', {
      field: 'role',
      code: 'VALIDATION_INVALID',
    });
    await rejectsWithApiError(newToken('Orphan', { role: 'abc' }), 'INVALID_FIELD', {
      field: 'role',
    });
  });

  test('create needs every attribute and the role', async () => {
    const noRole = await server.request('POST', '/access_tokens', {
      data: {
        type: 'access_token',
        attributes: {
          name: 'No role',
          can_access_cda: true,
          can_access_cda_preview: true,
          can_access_cma: true,
        },
      },
    });
    assert.equal(noRole.status, 422);
    assert.match(JSON.stringify(noRole.body), /INVALID_FORMAT/);
    const noFlags = await server.request('POST', '/access_tokens', {
      data: {
        type: 'access_token',
        attributes: { name: 'No flags' },
        relationships: { role: { data: { type: 'role', id: roleId } } },
      },
    });
    assert.equal(noFlags.status, 422);
    assert.match(JSON.stringify(noFlags.body), /INVALID_FORMAT/);
  });

  test('delete returns the token and its secret stops working', async () => {
    const created = await newToken('Temporary');
    const deleted = await admin.accessTokens.destroy(created.id);
    assert.equal(deleted.id, created.id);
    assert.equal(deleted.name, 'Temporary');
    assert.equal(deleted.token, null);
    assert.equal(await works(created.token as string), false);
    await rejectsWithApiError(admin.accessTokens.find(created.id), 'NOT_FOUND');
  });

  test('delete accepts an existing destination token, and refuses a missing one', async () => {
    const keeper = await newToken('Keeper');
    const first = await newToken('Leaving 1');
    const second = await newToken('Leaving 2');
    const third = await newToken('Leaving 3');

    const missing = await server.request(
      'DELETE',
      `/access_tokens/${first.id}?destination_access_token_id=999999`,
    );
    assert.equal(missing.status, 422);
    assert.match(JSON.stringify(missing.body), /INVALID_PARAMS/);
    const itself = await server.request(
      'DELETE',
      `/access_tokens/${first.id}?destination_access_token_id=${first.id}`,
    );
    assert.equal(itself.status, 422);

    const moved = await server.request(
      'DELETE',
      `/access_tokens/${first.id}?destination_access_token_id=${keeper.id}`,
    );
    assert.equal(moved.status, 200);
    // The official client names the destination as a user type and id.
    await admin.accessTokens.destroy(second.id, {
      destination_user_type: 'access_token',
      destination_user_id: keeper.id,
    });
    await admin.accessTokens.destroy(third.id, {
      destination_user_type: 'account',
      destination_user_id: '1',
    });
    const remaining = (await admin.accessTokens.list()).map((token) => token.name);
    assert.ok(remaining.includes('Keeper'));
    assert.ok(!remaining.some((name) => name.startsWith('Leaving')));
  });

  test('unknown ids are 404 NOT_FOUND', async () => {
    await rejectsWithApiError(admin.accessTokens.find('999999'), 'NOT_FOUND');
    await rejectsWithApiError(admin.accessTokens.find('abc'), 'NOT_FOUND');
    await rejectsWithApiError(admin.accessTokens.regenerateToken('999999'), 'NOT_FOUND');
    await rejectsWithApiError(admin.accessTokens.destroy('abc'), 'NOT_FOUND');
  });

  test('every access token call needs can_manage_access_tokens', async () => {
    const { token } = await createApiToken(admin, {
      environments_access: 'all',
      can_manage_users: true,
    });
    const client = server.client({ apiToken: token });
    await rejectsWithApiError(client.accessTokens.list(), 'INSUFFICIENT_PERMISSIONS');
    await rejectsWithApiError(
      client.accessTokens.create({
        name: 'Escalated',
        can_access_cda: false,
        can_access_cda_preview: false,
        can_access_cma: true,
        role: { type: 'role', id: roleId },
      }),
      'INSUFFICIENT_PERMISSIONS',
    );

    const manager = await createApiToken(admin, {
      environments_access: 'all',
      can_manage_access_tokens: true,
    });
    const managed = await server.client({ apiToken: manager.token }).accessTokens.list();
    assert.ok(managed.some((accessToken) => accessToken.id === manager.tokenId));
  });
});

describe('last access buckets', () => {
  // A Wednesday: its week began on Monday 2025-06-09, its month on 2025-06-01.
  const now = new Date('2025-06-11T12:00:00Z');
  const cases: [string | null, string][] = [
    [null, 'never'],
    ['2025-06-11T00:00:00Z', 'today'],
    ['2025-06-10T23:59:59Z', 'yesterday'],
    ['2025-06-10T00:00:00Z', 'yesterday'],
    ['2025-06-09T08:00:00Z', 'this_week'],
    ['2025-06-08T23:00:00Z', 'last_week'],
    ['2025-06-02T00:00:00Z', 'last_week'],
    ['2025-06-01T10:00:00Z', 'this_month'],
    ['2025-05-31T10:00:00Z', 'last_month'],
    ['2025-05-01T00:00:00Z', 'last_month'],
    ['2025-04-30T23:59:59Z', 'never'],
  ];
  for (const [at, expected] of cases) {
    test(`${at ?? 'null'} → ${expected}`, () => {
      assert.equal(lastAccessBucket(at === null ? null : new Date(at), now), expected);
    });
  }

  test('on a Monday, yesterday is still yesterday, not last week', () => {
    const monday = new Date('2025-06-09T09:00:00Z');
    assert.equal(lastAccessBucket(new Date('2025-06-08T09:00:00Z'), monday), 'yesterday');
    assert.equal(lastAccessBucket(new Date('2025-06-07T09:00:00Z'), monday), 'last_week');
  });
});

describe('no privilege escalation through tokens', () => {
  async function tokensManager() {
    const created = await createApiToken(admin, {
      environments_access: 'all',
      can_manage_access_tokens: true,
    });
    return { ...created, client: server.client({ apiToken: created.token }) };
  }

  async function adminRoleId(): Promise<string> {
    const found = (await admin.roles.list()).find((role) => role.name === 'Admin');
    assert.ok(found);
    return found.id;
  }

  const flags = { can_access_cda: false, can_access_cda_preview: false, can_access_cma: true };

  test('a role with only can_manage_access_tokens cannot create an Admin token to write the schema', async () => {
    const { client } = await tokensManager();
    const strong = await adminRoleId();
    await assert.rejects(
      client.accessTokens.create({
        name: 'Stolen admin',
        ...flags,
        role: { type: 'role', id: strong },
      }),
      (error) =>
        apiError(error).findError('INSUFFICIENT_PERMISSIONS') !== undefined &&
        JSON.stringify(apiError(error).errors).includes('can_edit_schema'),
    );
    const names = (await admin.accessTokens.list()).map((token) => token.name);
    assert.ok(!names.includes('Stolen admin'), 'no token was created');
  });

  test('nor move a token, its own included, to a stronger role', async () => {
    const { client, tokenId } = await tokensManager();
    const strong = await adminRoleId();
    const other = await newToken('Moved up');
    for (const id of [tokenId, other.id]) {
      await rejectsWithApiError(
        client.accessTokens.update(id, {
          name: `Moved ${id}`,
          ...flags,
          role: { type: 'role', id: strong },
        }),
        'INSUFFICIENT_PERMISSIONS',
      );
    }
    assert.deepEqual((await admin.accessTokens.find(other.id)).role, { type: 'role', id: roleId });
  });

  test('nor regenerate, change or delete a token whose role is above its own', async () => {
    const { client } = await tokensManager();
    const strong = await adminRoleId();
    const adminHeld = await newToken('Admin held', { role: strong });
    const builtIn = (await admin.accessTokens.list()).find((t) => t.hardcoded_type === 'admin');
    assert.ok(builtIn);
    for (const id of [adminHeld.id, builtIn.id]) {
      await rejectsWithApiError(
        client.accessTokens.regenerateToken(id),
        'INSUFFICIENT_PERMISSIONS',
      );
      await rejectsWithApiError(client.accessTokens.destroy(id), 'INSUFFICIENT_PERMISSIONS');
    }
    await rejectsWithApiError(
      client.accessTokens.update(adminHeld.id, {
        name: 'Admin held',
        ...flags,
        role: { type: 'role', id: roleId },
      }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.ok(await works(adminHeld.token as string), 'the stronger token still works');
  });

  test('tokens for roles within its own rights are managed freely', async () => {
    const { client, roleId: ownRole } = await tokensManager();
    const created = await client.accessTokens.create({
      name: 'Same rights',
      ...flags,
      role: { type: 'role', id: ownRole },
    });
    assert.ok(await works(created.token as string));
    const moved = await client.accessTokens.update(created.id, {
      name: 'Reader now',
      ...flags,
      role: { type: 'role', id: roleId },
    });
    assert.deepEqual(moved.role, { type: 'role', id: roleId });
    const regenerated = await client.accessTokens.regenerateToken(created.id);
    assert.ok(await works(regenerated.token as string));
    assert.equal((await client.accessTokens.destroy(created.id)).id, created.id);
  });
});
