import { type SelectQueryBuilder, sql } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { EnvironmentDatabase } from '../../db/schema.ts';

/** `page[limit]` default of both tag lists (DatoCMS's); at most 500. */
export const DEFAULT_TAG_PAGE = 50;

export type TagQuery = { query?: string; offset: number; limit: number };

export type TagPage = { names: string[]; totalCount: number };

type Names = SelectQueryBuilder<EnvironmentDatabase, never, { name: string }>;

/**
 * A page of distinct tag names from `names`, alphabetical, narrowed to those holding
 * `query` (case-insensitive), with how many match in all.
 */
export async function tagPage(db: EnvQueryable, names: Names, query: TagQuery): Promise<TagPage> {
  let matching = db.selectFrom(names.as('tags')).select('tags.name').distinct();
  if (query.query) {
    const like = `%${query.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    matching = matching.where('tags.name', 'ilike', like);
  }
  const rows = await db
    .selectFrom(matching.as('matching'))
    .select(['matching.name', sql<string>`count(*) OVER ()`.as('total_count')])
    .orderBy('matching.name')
    .offset(query.offset)
    .limit(query.limit)
    .execute();
  const totalCount = rows[0]
    ? Number(rows[0].total_count)
    : Number(
        (
          await db
            .selectFrom(matching.as('matching'))
            .select(sql<string>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
  return { names: rows.map((row) => row.name), totalCount };
}

/** Every tag name uploads carry in `column`. */
export function namesOnUploads(db: EnvQueryable, column: 'tags' | 'smart_tags'): Names {
  return db
    .selectFrom('uploads')
    .select(sql<string>`jsonb_array_elements_text(${sql.ref(column)})`.as('name')) as Names;
}
