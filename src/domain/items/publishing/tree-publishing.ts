import { sql } from 'kysely';
import type { EnvQueryable } from '../../../db/environment-scope.ts';

// Publishing in tree models: a record is not published under an unpublished parent, and a
// parent is not withdrawn from under published children (DatoCMS's UNPUBLISHED_PARENT and
// PUBLISHED_CHILDREN), unless the request says `recursive=true`.

// Deeper than any real tree; it also ends the walk should a cycle of parents ever exist.
const MAX_DEPTH = 1000;

/** The record's ancestors in draft (never published, or withdrawn), the root first. */
export async function unpublishedAncestors(db: EnvQueryable, id: string): Promise<string[]> {
  const rows = await db
    .withRecursive('up(id, depth)', (qb) =>
      qb
        .selectFrom('items')
        .select(['parent_id as id', sql<number>`1`.as('depth')])
        .where('id', '=', id)
        .where('parent_id', 'is not', null)
        .unionAll((next) =>
          next
            .selectFrom('items')
            .innerJoin('up', 'up.id', 'items.id')
            .select(['items.parent_id as id', sql<number>`up.depth + 1`.as('depth')])
            .where('items.parent_id', 'is not', null)
            .where('up.depth', '<', MAX_DEPTH),
        ),
    )
    .selectFrom('up')
    .innerJoin('items', 'items.id', 'up.id')
    .select('items.id')
    .where('items.status', '=', 'draft')
    .orderBy('up.depth', 'desc')
    .execute();
  return rows.map((row) => row.id);
}

/** The record's descendants that are published, the deepest first. */
export async function publishedDescendants(db: EnvQueryable, id: string): Promise<string[]> {
  const rows = await db
    .withRecursive('down(id, depth)', (qb) =>
      qb
        .selectFrom('items')
        .select(['id', sql<number>`1`.as('depth')])
        .where('parent_id', '=', id)
        .unionAll((next) =>
          next
            .selectFrom('items')
            .innerJoin('down', 'down.id', 'items.parent_id')
            .select(['items.id', sql<number>`down.depth + 1`.as('depth')])
            .where('down.depth', '<', MAX_DEPTH),
        ),
    )
    .selectFrom('down')
    .innerJoin('items', 'items.id', 'down.id')
    .select('items.id')
    .where('items.status', '!=', 'draft')
    .orderBy('down.depth', 'desc')
    .execute();
  return rows.map((row) => row.id);
}
