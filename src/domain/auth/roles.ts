import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { RoleRow } from '../../db/schema.ts';
import type { Queryable, Trx } from '../../db/transaction.ts';
import type { Actor } from '../actor.ts';
import { DomainError, NotFound } from '../errors.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { assertWithinRights, callerRights, type Rights } from './caller-rights.ts';
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

/** A role with what holding it grants, inherited rights included. */
export type RoleView = { row: RoleRow; finalPermissions: RoleAttributes };

async function viewOf(db: Queryable, row: RoleRow): Promise<RoleView> {
  return { row, finalPermissions: finalPermissions(row.id, await loadRoleChain(db, row.id)) };
}

function viewsOf(rows: RoleRow[], graph: RoleGraph): RoleView[] {
  return rows.map((row) => ({ row, finalPermissions: finalPermissions(row.id, graph) }));
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

/** What the role would grant once stored as `draft`, inherited rights included. */
function draftFinalPermissions(draft: RoleDraft, id: string, graph: RoleGraph): RoleAttributes {
  const withDraft = new Map(graph);
  withDraft.set(id, {
    id,
    attributes: draft.attributes,
    inherits_permissions_from: draft.inheritsFrom,
  });
  return finalPermissions(id, withDraft);
}

/** Refuses a caller acting on a role that grants more than the caller's own role. */
async function assertMayManage(trx: Trx, rights: Rights, row: RoleRow): Promise<void> {
  const target = finalPermissions(row.id, await loadRoleChain(trx, row.id));
  assertWithinRights(rights, target, `Role "${row.name}"`);
}

/**
 * Applies and validates the input against the current roles; returns what to store.
 * The result must stay within the caller's rights: its own role included, so a role
 * never rises above what the caller already holds.
 */
async function checkedDraft(
  trx: Trx,
  rights: Rights,
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
  const graph = roleGraph(rows);
  validateRole(draft, input, { roleId, nameTaken: taken, graph });
  assertWithinRights(
    rights,
    draftFinalPermissions(draft, roleId ?? 'new', graph),
    `Role "${draft.name}"`,
  );
  return draft;
}

export async function listRoles(db: Db): Promise<RoleView[]> {
  const rows = await allRoles(db);
  return viewsOf(rows, roleGraph(rows));
}

export async function findRole(db: Db, id: string): Promise<RoleView> {
  return viewOf(db, await findOrFail(db, id));
}

export async function createRole(db: Db, caller: Actor, input: RoleInput): Promise<RoleView> {
  try {
    return await inAuthTransaction(db, async (trx) => {
      const draft = await checkedDraft(trx, await callerRights(trx, caller), null, input);
      const row = await trx
        .insertInto('roles')
        .values(columns(draft))
        .returningAll()
        .executeTakeFirstOrThrow();
      return viewOf(trx, row);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

export async function updateRole(
  db: Db,
  caller: Actor,
  id: string,
  input: RoleInput,
): Promise<RoleView> {
  try {
    return await inAuthTransaction(db, async (trx) => {
      const before = await findOrFail(trx, id);
      const rights = await callerRights(trx, caller);
      await assertMayManage(trx, rights, before);
      const draft = await checkedDraft(trx, rights, before, input);
      const row = await trx
        .updateTable('roles')
        .set(columns(draft))
        .where('id', '=', before.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return viewOf(trx, row);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/**
 * A copy named "<name> (copy #N)" with the smallest free N, inheriting from the same
 * roles. Only of a role within the caller's rights: the copy grants what it grants.
 */
export async function duplicateRole(db: Db, caller: Actor, id: string): Promise<RoleView> {
  return inAuthTransaction(db, async (trx) => {
    const source = await findOrFail(trx, id);
    await assertMayManage(trx, await callerRights(trx, caller), source);
    let n = 1;
    while (await nameTaken(trx, 'roles', `${source.name} (copy #${n})`, null)) n++;
    const row = await trx
      .insertInto('roles')
      .values(columns({ ...draftOf(source), name: `${source.name} (copy #${n})` }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return viewOf(trx, row);
  });
}

/** Refuses while a token uses the role or another role inherits from it, or it is above the caller. */
export async function destroyRole(db: Db, caller: Actor, id: string): Promise<RoleView> {
  return inAuthTransaction(db, async (trx) => {
    const target = await findOrFail(trx, id);
    await assertMayManage(trx, await callerRights(trx, caller), target);
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
    const deleted = await viewOf(trx, target);
    await trx.deleteFrom('roles').where('id', '=', target.id).execute();
    return deleted;
  });
}
