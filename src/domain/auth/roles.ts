import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { RoleRow } from '../../db/schema.ts';
import type { Queryable, Trx } from '../../db/transaction.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { presentRole } from '../../presenters/role.ts';
import { DomainError, NotFound } from '../errors.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { nameTaken } from './names.ts';
import { finalPermissions } from './permissions.ts';
import { type RoleAttributes, roleAttributes } from './role-attributes.ts';
import { loadRoleChain, type RoleGraph, roleGraph } from './role-graph.ts';
import { applyRoleInput, type RoleDraft, type RoleInput, validateRole } from './role-rules.ts';
import { isRowId } from './row-id.ts';
import { inAuthTransaction } from './transaction.ts';

async function findOrFail(db: Queryable, id: string): Promise<RoleRow> {
  const row = isRowId(id)
    ? await db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw new NotFound('Role', id);
  return row;
}

async function allRoles(db: Queryable): Promise<RoleRow[]> {
  return db.selectFrom('roles').selectAll().orderBy('id').execute();
}

async function present(db: Queryable, row: RoleRow): Promise<Resource> {
  return presentRole(row, finalPermissions(row.id, await loadRoleChain(db, row.id)));
}

function presentAll(rows: RoleRow[], graph: RoleGraph): Resource[] {
  return rows.map((row) => presentRole(row, finalPermissions(row.id, graph)));
}

function draftOf(row: RoleRow): RoleDraft {
  return {
    name: row.name,
    attributes: roleAttributes(row.attributes as Partial<RoleAttributes>),
    inheritsFrom: row.inherits_permissions_from,
  };
}

function columns(draft: RoleDraft) {
  return {
    name: draft.name,
    attributes: JSON.stringify(draft.attributes),
    inherits_permissions_from: JSON.stringify(draft.inheritsFrom),
  };
}

/** Applies and validates the input against the current roles; returns what to store. */
async function checkedDraft(
  trx: Trx,
  before: RoleRow | null,
  input: RoleInput,
): Promise<RoleDraft> {
  const base = before
    ? draftOf(before)
    : { name: '', attributes: roleAttributes({}), inheritsFrom: [] };
  const draft = applyRoleInput(base, input);
  const roleId = before?.id ?? null;
  const [taken, rows] = await Promise.all([
    nameTaken(trx, 'roles', draft.name, roleId),
    allRoles(trx),
  ]);
  validateRole(draft, input, { roleId, nameTaken: taken, graph: roleGraph(rows) });
  return draft;
}

export async function listRoles(db: Db): Promise<Resource[]> {
  const rows = await allRoles(db);
  return presentAll(rows, roleGraph(rows));
}

export async function findRole(db: Db, id: string): Promise<Resource> {
  return present(db, await findOrFail(db, id));
}

export async function createRole(db: Db, input: RoleInput): Promise<Resource> {
  try {
    return await inAuthTransaction(db, async (trx) => {
      const draft = await checkedDraft(trx, null, input);
      const row = await trx
        .insertInto('roles')
        .values(columns(draft))
        .returningAll()
        .executeTakeFirstOrThrow();
      return present(trx, row);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

export async function updateRole(db: Db, id: string, input: RoleInput): Promise<Resource> {
  try {
    return await inAuthTransaction(db, async (trx) => {
      const before = await findOrFail(trx, id);
      const draft = await checkedDraft(trx, before, input);
      const row = await trx
        .updateTable('roles')
        .set(columns(draft))
        .where('id', '=', before.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return present(trx, row);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/** A copy named "<name> (copy #N)" with the smallest free N, inheriting from the same roles. */
export async function duplicateRole(db: Db, id: string): Promise<Resource> {
  return inAuthTransaction(db, async (trx) => {
    const source = await findOrFail(trx, id);
    let n = 1;
    while (await nameTaken(trx, 'roles', `${source.name} (copy #${n})`, null)) n++;
    const row = await trx
      .insertInto('roles')
      .values(columns({ ...draftOf(source), name: `${source.name} (copy #${n})` }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return present(trx, row);
  });
}

/** Refuses while a token uses the role or another role inherits from it. */
export async function destroyRole(db: Db, id: string): Promise<Resource> {
  return inAuthTransaction(db, async (trx) => {
    const target = await findOrFail(trx, id);
    const [tokens, heirs] = await Promise.all([
      trx.selectFrom('access_tokens').select('id').where('role_id', '=', target.id).execute(),
      trx
        .selectFrom('roles')
        .select('id')
        .where(sql<boolean>`inherits_permissions_from @> ${JSON.stringify([target.id])}::jsonb`)
        .execute(),
    ]);
    if (tokens.length > 0) {
      throw new DomainError('REQUIRED_BY_ASSOCIATION', 'API tokens still use this role', {
        access_token_ids: tokens.map((token) => token.id),
      });
    }
    if (heirs.length > 0) {
      throw new DomainError('REQUIRED_BY_ASSOCIATION', 'other roles inherit from this role', {
        role_ids: heirs.map((role) => role.id),
      });
    }
    const deleted = await present(trx, target);
    await trx.deleteFrom('roles').where('id', '=', target.id).execute();
    return deleted;
  });
}
