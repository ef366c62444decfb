import type { Trx } from '../../db/transaction.ts';
import type { PERMISSION_LISTS } from './role-attributes.ts';
import { lockAuth } from './transaction.ts';

type Entry = Record<string, unknown>;
type Lists = Partial<Record<(typeof PERMISSION_LISTS)[number], Entry[]>>;

/** The permission lists whose entries name one environment each. */
const ENVIRONMENT_LISTS = [
  'positive_item_type_permissions',
  'negative_item_type_permissions',
  'positive_upload_permissions',
  'negative_upload_permissions',
] as const;

/**
 * Rewrites every role's environment-scoped permission entries in the caller's
 * transaction, under the auth lock (role writes take it too). Roles are few: each is read,
 * rewritten in memory and saved only when it changed.
 */
async function rewriteEntries(trx: Trx, rewrite: (entries: Entry[]) => Entry[]): Promise<void> {
  await lockAuth(trx);
  const roles = await trx.selectFrom('roles').select(['id', 'attributes']).execute();
  for (const role of roles) {
    const attributes = role.attributes as Lists;
    const next: Lists = { ...attributes };
    let changed = false;
    for (const list of ENVIRONMENT_LISTS) {
      const before = attributes[list] ?? [];
      const after = rewrite(before);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        next[list] = after;
        changed = true;
      }
    }
    if (changed)
      await trx
        .updateTable('roles')
        .set({ attributes: JSON.stringify(next) })
        .where('id', '=', role.id)
        .execute();
  }
}

/**
 * A fork gives every role the same permissions on the new environment as on its source,
 * so whoever could edit the source's records can edit the fork's, and still can once the
 * fork is promoted (the Admin and Editor roles included). Entries already naming the new
 * id belong to no environment (a role written naming one that did not exist, or a fork
 * interrupted before recovery dropped its entries): they are dropped, so the new
 * environment starts with its source's entries only.
 */
export async function copyRolePermissions(trx: Trx, fromId: string, toId: string): Promise<void> {
  await rewriteEntries(trx, (entries) => {
    const kept = entries.filter((entry) => entry.environment !== toId);
    return [
      ...kept,
      ...kept
        .filter((entry) => entry.environment === fromId)
        .map((entry) => ({ ...entry, environment: toId })),
    ];
  });
}

/**
 * A renamed environment keeps its permissions: entries follow the new id, and those that
 * named the new id before (no environment had it) are dropped.
 */
export async function renameRolePermissions(trx: Trx, fromId: string, toId: string): Promise<void> {
  await rewriteEntries(trx, (entries) =>
    entries
      .filter((entry) => entry.environment !== toId)
      .map((entry) => (entry.environment === fromId ? { ...entry, environment: toId } : entry)),
  );
}

/**
 * A removed environment's entries go with it, in the transaction that removes it (a
 * destroy, a failed fork, an interrupted one at recovery): a later one of the same id
 * starts bare.
 */
export async function dropRolePermissions(trx: Trx, environmentId: string): Promise<void> {
  await rewriteEntries(trx, (entries) =>
    entries.filter((entry) => entry.environment !== environmentId),
  );
}
