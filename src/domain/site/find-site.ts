import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import type { FieldRow, FieldsetRow } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { listItemTypes } from '../schema/models.ts';
import { SITE_INCLUDES } from './attributes.ts';
import { loadSite, type SiteWithSchema, viewOf } from './site-view.ts';

/**
 * The site, with its models, their fields and fieldsets in `included` when asked (the
 * `datocms schema:generate` command reads the whole schema this way). `singleton_item`
 * and `account` are accepted and include nothing: records and accounts are not served.
 */
export async function findSite(scope: Scope, include: string[]): Promise<SiteWithSchema> {
  const unknown = include.filter((path) => !(SITE_INCLUDES as readonly string[]).includes(path));
  if (unknown.length > 0) {
    const messages = unknown.map((path) => `include: unknown relationship path "${path}"`);
    throw new DomainError('INVALID_PARAMS', messages.join('; '), { messages });
  }
  const loaded = await loadSite(scope.project, scope.db);
  const site = await viewOf(scope.db, loaded.project, loaded.settings);
  // JSON:API: including `item_types.fields` includes the models on the way.
  const wantsItemTypes = include.some((path) => path.split('.')[0] === 'item_types');
  if (!wantsItemTypes) return { site };
  return {
    site,
    models: await listItemTypes(scope),
    ...(include.includes('item_types.fields') ? { fields: await allFields(scope.db) } : {}),
    ...(include.includes('item_types.fieldsets')
      ? { fieldsets: await allFieldsets(scope.db) }
      : {}),
  };
}

async function allFields(db: EnvQueryable): Promise<FieldRow[]> {
  const rows = await db
    .selectFrom('fields')
    .innerJoin('item_types', 'item_types.id', 'fields.item_type_id')
    .selectAll('fields')
    .orderBy('item_types.seq')
    .orderBy('fields.position')
    .orderBy('fields.seq')
    .execute();
  return rows;
}

async function allFieldsets(db: EnvQueryable): Promise<FieldsetRow[]> {
  const rows = await db
    .selectFrom('fieldsets')
    .innerJoin('item_types', 'item_types.id', 'fieldsets.item_type_id')
    .selectAll('fieldsets')
    .orderBy('item_types.seq')
    .orderBy('fieldsets.position')
    .execute();
  return rows;
}
