import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { Resource } from '../../presenters/jsonapi.ts';

/**
 * Fills `meta.has_children` of tree records (those presented with a `parent_id`
 * attribute): true when another record names it as parent. One query for any number
 * of records; other records keep null, as the client's ItemMeta has it. Called where
 * records are presented (reads, and each write's event, whose entity the write answers),
 * so responses and webhook payloads say the same.
 */
export async function withTreeMeta<T extends Resource | Resource[]>(
  db: EnvQueryable,
  entities: T,
): Promise<T> {
  const list: Resource[] = Array.isArray(entities) ? entities : [entities];
  const treeIds = new Set(
    list
      .filter((entity) => Object.hasOwn(entity.attributes, 'parent_id'))
      .map((entity) => entity.id),
  );
  if (treeIds.size === 0) return entities;
  const parents = await db
    .selectFrom('items')
    .select('parent_id')
    .distinct()
    .where('parent_id', 'in', [...treeIds])
    .execute();
  const withChildren = new Set(parents.map((row) => row.parent_id));
  for (const entity of list)
    if (treeIds.has(entity.id))
      entity.meta = { ...entity.meta, has_children: withChildren.has(entity.id) };
  return entities;
}
