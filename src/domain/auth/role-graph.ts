import { sql } from 'kysely';
import type { Queryable } from '../../db/transaction.ts';
import type { RoleAttributes } from './role-attributes.ts';

/** What permission resolution needs of a role. */
export type RoleNode = {
  id: string;
  attributes: Partial<RoleAttributes>;
  inherits_permissions_from: string[];
};

export type RoleGraph = ReadonlyMap<string, RoleNode>;

export function roleGraph(
  rows: { id: string; attributes: unknown; inherits_permissions_from: string[] }[],
): RoleGraph {
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        attributes: row.attributes as Partial<RoleAttributes>,
        inherits_permissions_from: row.inherits_permissions_from,
      },
    ]),
  );
}

/** A role and every role it inherits from, directly or not: the part of the graph it needs. */
export async function loadRoleChain(db: Queryable, roleId: string): Promise<RoleGraph> {
  const { rows } = await sql<RoleNode>`
    WITH RECURSIVE chain(id) AS (
      SELECT ${roleId}::bigint
      UNION
      SELECT parent.id::bigint
      FROM chain
      JOIN roles ON roles.id = chain.id
      CROSS JOIN LATERAL jsonb_array_elements_text(roles.inherits_permissions_from) AS parent(id)
    )
    SELECT roles.id, roles.attributes, roles.inherits_permissions_from
    FROM roles JOIN chain ON roles.id = chain.id
  `.execute(db);
  return roleGraph(rows);
}

/** The role itself, then every role it inherits from, each once (a cycle cannot loop). */
export function lineage(roleId: string, graph: RoleGraph): RoleNode[] {
  const seen = new Set<string>();
  const result: RoleNode[] = [];
  const visit = (id: string) => {
    const node = graph.get(id);
    if (!node || seen.has(id)) return;
    seen.add(id);
    result.push(node);
    for (const parent of node.inherits_permissions_from) visit(parent);
  };
  visit(roleId);
  return result;
}
