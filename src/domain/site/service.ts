import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { SiteRow } from '../../db/schema.ts';
import { inSchemaTransaction, type Queryable } from '../../db/transaction.ts';
import { presentField } from '../../presenters/field.ts';
import { presentFieldset } from '../../presenters/fieldset.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { presentSite } from '../../presenters/site.ts';
import type { Permission } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { listItemTypes } from '../item-types/service.ts';
import { SITE_INCLUDES, type SiteUpdate } from './attributes.ts';
import { rewriteLocalizedDefaults } from './localized-defaults.ts';
import { checkSettingPermissions, localesChanged, validateSiteUpdate } from './rules.ts';

async function present(db: Queryable, row: SiteRow): Promise<Resource> {
  const itemTypes = await db.selectFrom('item_types').select('id').orderBy('seq').execute();
  return presentSite(
    row,
    itemTypes.map((itemType) => itemType.id),
  );
}

/**
 * The site, with its models, their fields and fieldsets in `included` when asked (the
 * `datocms schema:generate` command reads the whole schema this way). `singleton_item`
 * and `account` are accepted and include nothing: records and accounts are not served.
 */
export async function findSite(
  db: Db,
  include: string[],
): Promise<{ data: Resource; included?: Resource[] }> {
  const unknown = include.filter((path) => !(SITE_INCLUDES as readonly string[]).includes(path));
  if (unknown.length > 0) {
    const messages = unknown.map((path) => `include: unknown relationship path "${path}"`);
    throw new DomainError('INVALID_PARAMS', messages.join('; '), { messages });
  }
  const data = await present(db, await db.selectFrom('site').selectAll().executeTakeFirstOrThrow());
  // JSON:API: including `item_types.fields` includes the models on the way.
  const wantsItemTypes = include.some((path) => path.split('.')[0] === 'item_types');
  if (!wantsItemTypes) return { data };
  const included = await listItemTypes(db);
  if (include.includes('item_types.fields')) included.push(...(await allFields(db)));
  if (include.includes('item_types.fieldsets')) included.push(...(await allFieldsets(db)));
  return { data, included };
}

async function allFields(db: Db): Promise<Resource[]> {
  const rows = await db
    .selectFrom('fields')
    .innerJoin('item_types', 'item_types.id', 'fields.item_type_id')
    .selectAll('fields')
    .orderBy('item_types.seq')
    .orderBy('fields.position')
    .orderBy('fields.seq')
    .execute();
  return rows.map(presentField);
}

async function allFieldsets(db: Db): Promise<Resource[]> {
  const rows = await db
    .selectFrom('fieldsets')
    .innerJoin('item_types', 'item_types.id', 'fieldsets.item_type_id')
    .selectAll('fieldsets')
    .orderBy('item_types.seq')
    .orderBy('fieldsets.position')
    .execute();
  return rows.map(presentFieldset);
}

/** Changes the settings sent; a change of locales reshapes localized default values with it. */
export async function updateSite(
  db: Db,
  permissions: ReadonlySet<Permission>,
  update: SiteUpdate,
): Promise<Resource> {
  checkSettingPermissions(update, permissions);
  validateSiteUpdate(update);
  return inSchemaTransaction(db, async (trx) => {
    const before = await trx.selectFrom('site').selectAll().executeTakeFirstOrThrow();
    if (Object.keys(update).length === 0) return present(trx, before);
    const { locales, theme, global_seo, ...plain } = update;
    const row = await trx
      .updateTable('site')
      .set({
        ...plain,
        ...(locales !== undefined ? { locales: JSON.stringify(locales) } : {}),
        ...(theme !== undefined ? { theme: JSON.stringify(theme) } : {}),
        ...(global_seo !== undefined ? { global_seo: JSON.stringify(global_seo) } : {}),
        last_data_change_at: sql<Date>`now()`,
      })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (localesChanged(before, update)) await rewriteLocalizedDefaults(trx, row.locales);
    return present(trx, row);
  });
}
