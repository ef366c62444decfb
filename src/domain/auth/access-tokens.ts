import type { Db } from '../../db/client.ts';
import type { AccessTokenRow } from '../../db/schema.ts';
import type { Queryable, Trx } from '../../db/transaction.ts';
import type { Actor } from '../actor.ts';
import { DomainError, Issues, NotFound } from '../errors.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { assertWithinRights, callerRights, type Rights } from './caller-rights.ts';
import { checkName, nameTaken } from './names.ts';
import { finalPermissions } from './permissions.ts';
import { loadRoleChain } from './role-graph.ts';
import { isRowId } from './row-id.ts';
import { generateToken, hashToken } from './tokens.ts';
import { inAuthTransaction } from './transaction.ts';

export type NewAccessToken = {
  name: string;
  roleId: string;
  canAccessCda: boolean;
  canAccessCdaPreview: boolean;
  canAccessCma: boolean;
};

/** Creates a token; its secret is returned here once and only its hash is kept. */
export async function insertAccessToken(
  db: Queryable,
  input: NewAccessToken,
): Promise<{ row: AccessTokenRow; token: string }> {
  const token = generateToken();
  const row = await db
    .insertInto('access_tokens')
    .values({
      name: input.name,
      token_hash: hashToken(token),
      can_access_cda: input.canAccessCda,
      can_access_cda_preview: input.canAccessCdaPreview,
      can_access_cma: input.canAccessCma,
      hardcoded_type: null,
      role_id: input.roleId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token };
}

/** An update: the client always sends every attribute; the role only when it changes. */
export type AccessTokenUpdate = Omit<NewAccessToken, 'roleId'> & { roleId?: string };

/** A token with its secret, known only right after it is made (the database keeps its hash). */
export type IssuedToken = { row: AccessTokenRow; secret: string | null };

function issued(row: AccessTokenRow, secret: string | null = null): IssuedToken {
  return { row, secret };
}

async function findOrFail(db: Queryable, id: string): Promise<AccessTokenRow> {
  const row = isRowId(id)
    ? await db.selectFrom('access_tokens').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw new NotFound('Access token', id);
  return row;
}

async function validate(
  trx: Trx,
  input: AccessTokenUpdate,
  exceptId: string | null,
): Promise<void> {
  const issues = new Issues('AccessToken');
  const [taken, role] = await Promise.all([
    nameTaken(trx, 'access_tokens', input.name, exceptId),
    input.roleId !== undefined && isRowId(input.roleId)
      ? trx.selectFrom('roles').select('id').where('id', '=', input.roleId).executeTakeFirst()
      : undefined,
  ]);
  checkName(issues, input.name, taken);
  if (input.roleId !== undefined && !role)
    issues.add('role', 'VALIDATION_INVALID', 'role not found');
  issues.throwIfAny();
}

/** What holding this role grants, inherited rights included. */
async function roleRights(trx: Trx, roleId: string): Promise<Rights> {
  return finalPermissions(roleId, await loadRoleChain(trx, roleId));
}

/**
 * Refuses a caller acting on a token that can do more than the caller: regenerating
 * it would hand over its secret. The built-in full-access token counts as unbounded.
 */
async function assertMayManage(trx: Trx, rights: Rights, row: AccessTokenRow): Promise<void> {
  const target = row.hardcoded_type === 'admin' ? 'unbounded' : await roleRights(trx, row.role_id);
  assertWithinRights(rights, target, `API token "${row.name}"`);
}

/** A token may be given only a role within the caller's rights. */
async function assertMayAssign(trx: Trx, rights: Rights, roleId: string): Promise<void> {
  assertWithinRights(rights, await roleRights(trx, roleId), `The role of this API token`);
}

export async function listAccessTokens(db: Db): Promise<IssuedToken[]> {
  const rows = await db.selectFrom('access_tokens').selectAll().orderBy('id').execute();
  return rows.map((row) => issued(row));
}

export async function findAccessToken(db: Db, id: string): Promise<IssuedToken> {
  return issued(await findOrFail(db, id));
}

export async function createAccessToken(
  db: Db,
  caller: Actor,
  input: NewAccessToken,
): Promise<IssuedToken> {
  try {
    return await inAuthTransaction(db, async (trx) => {
      await validate(trx, input, null);
      await assertMayAssign(trx, await callerRights(trx, caller), input.roleId);
      const { row, token } = await insertAccessToken(trx, input);
      return issued(row, token);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

export async function updateAccessToken(
  db: Db,
  caller: Actor,
  id: string,
  input: AccessTokenUpdate,
): Promise<IssuedToken> {
  try {
    return await inAuthTransaction(db, async (trx) => {
      const before = await findOrFail(trx, id);
      if (before.hardcoded_type !== null) {
        throw new DomainError('NON_EDITABLE_ACCESS_TOKEN', 'built-in API tokens cannot be edited', {
          hardcoded_type: before.hardcoded_type,
        });
      }
      const rights = await callerRights(trx, caller);
      await assertMayManage(trx, rights, before);
      await validate(trx, input, before.id);
      if (input.roleId !== undefined) await assertMayAssign(trx, rights, input.roleId);
      const row = await trx
        .updateTable('access_tokens')
        .set({
          name: input.name,
          can_access_cda: input.canAccessCda,
          can_access_cda_preview: input.canAccessCdaPreview,
          can_access_cma: input.canAccessCma,
          role_id: input.roleId ?? before.role_id,
        })
        .where('id', '=', before.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return issued(row);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/** A new secret; the old one stops working with this commit. Built-in tokens too. */
export async function regenerateAccessToken(
  db: Db,
  caller: Actor,
  id: string,
): Promise<IssuedToken> {
  return inAuthTransaction(db, async (trx) => {
    const before = await findOrFail(trx, id);
    await assertMayManage(trx, await callerRights(trx, caller), before);
    const token = generateToken();
    const row = await trx
      .updateTable('access_tokens')
      .set({ token_hash: hashToken(token) })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return issued(row, token);
  });
}

/**
 * Deletes a token. DatoCMS moves what the token owned to `destinationTokenId`; in
 * Fieldhouse tokens own nothing, so the destination is only checked to exist.
 */
export async function destroyAccessToken(
  db: Db,
  caller: Actor,
  id: string,
  destinationTokenId: string | undefined,
): Promise<IssuedToken> {
  return inAuthTransaction(db, async (trx) => {
    const target = await findOrFail(trx, id);
    await assertMayManage(trx, await callerRights(trx, caller), target);
    if (destinationTokenId !== undefined) {
      const destination = isRowId(destinationTokenId)
        ? await trx
            .selectFrom('access_tokens')
            .select('id')
            .where('id', '=', destinationTokenId)
            .where('id', '<>', target.id)
            .executeTakeFirst()
        : undefined;
      if (!destination) {
        const message = `destination access token ${destinationTokenId}: no other token with this id`;
        throw new DomainError('INVALID_PARAMS', message, { messages: [message] });
      }
    }
    await trx.deleteFrom('access_tokens').where('id', '=', target.id).execute();
    return issued(target);
  });
}
