import { sql } from 'kysely';
import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { FieldRow, FieldsetRow, SiteRow, SiteSettingsRow } from '../../db/schema.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { Permission } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { dropValueIndexesOfLocales } from '../items/query/value-indexes.ts';
import { reshapeRecordLocales } from '../items/schema-changes/locale-change.ts';
import { reshapeScheduleLocales } from '../items/schema-changes/schedule-locales.ts';
import type { ModelView } from '../schema/model-state.ts';
import { listItemTypes } from '../schema/models.ts';
import { SITE_INCLUDES, type SiteUpdate } from './attributes.ts';
import { rewriteLocalizedDefaults } from './localized-defaults.ts';
import { checkSettingPermissions, localesChanged, validateSiteUpdate } from './rules.ts';

/** The project's site row combined with one environment's settings and its models' ids. */
export type SiteView = { project: SiteRow; settings: SiteSettingsRow; itemTypeIds: string[] };

/** The site with what `include` asked for: its models, their fields and fieldsets. */
export type SiteWithSchema = {
  site: SiteView;
  models?: readonly ModelView[];
  fields?: FieldRow[];
  fieldsets?: FieldsetRow[];
};

async function viewOf(
  db: EnvQueryable,
  project: SiteRow,
  settings: SiteSettingsRow,
): Promise<SiteView> {
  const itemTypes = await db.selectFrom('item_types').select('id').orderBy('seq').execute();
  return { project, settings, itemTypeIds: itemTypes.map((itemType) => itemType.id) };
}

/** The project's site row and the environment's settings, through one handle each. */
async function loadSite(
  project: Queryable,
  db: EnvQueryable,
): Promise<{ project: SiteRow; settings: SiteSettingsRow }> {
  const [projectRow, settings] = await Promise.all([
    project.selectFrom('site').selectAll().executeTakeFirstOrThrow(),
    db.selectFrom('site_settings').selectAll().executeTakeFirstOrThrow(),
  ]);
  return { project: projectRow, settings };
}

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

// The settings each environment keeps for itself; the rest are project-wide.
const ENVIRONMENT_SETTINGS = [
  'locales',
  'timezone',
  'theme',
  'no_index',
  'favicon',
  'global_seo',
] as const;

/**
 * Changes the settings sent: the environment's in its own settings row, the project's
 * in the site row. A change of locales reshapes localized default values and records'
 * localized values with it.
 */
export async function updateSite(
  scope: Scope,
  permissions: ReadonlySet<Permission>,
  update: SiteUpdate,
): Promise<SiteView> {
  checkSettingPermissions(update, permissions);
  validateSiteUpdate(update);
  return inEnvironmentTransaction(scope, async (tx) => {
    const before = await loadSite(tx.project, tx.db);
    if (Object.keys(update).length === 0) return viewOf(tx.db, before.project, before.settings);
    const { locales, theme, global_seo, timezone, no_index, favicon, ...projectWide } = update;
    const touchesEnvironment = ENVIRONMENT_SETTINGS.some((key) => update[key] !== undefined);
    const settings = touchesEnvironment
      ? await tx.db
          .updateTable('site_settings')
          .set({
            ...(timezone !== undefined ? { timezone } : {}),
            ...(no_index !== undefined ? { no_index } : {}),
            ...(favicon !== undefined ? { favicon } : {}),
            ...(locales !== undefined ? { locales: JSON.stringify(locales) } : {}),
            ...(theme !== undefined ? { theme: JSON.stringify(theme) } : {}),
            ...(global_seo !== undefined ? { global_seo: JSON.stringify(global_seo) } : {}),
            last_data_change_at: sql<Date>`now()`,
          })
          .where('id', '=', before.settings.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : before.settings;
    const project =
      Object.keys(projectWide).length > 0
        ? await tx.project
            .updateTable('site')
            .set({ ...projectWide, last_data_change_at: sql<Date>`now()` })
            .where('id', '=', before.project.id)
            .returningAll()
            .executeTakeFirstOrThrow()
        : before.project;
    if (localesChanged(before.settings, update)) {
      await rewriteLocalizedDefaults(tx.db, settings.locales);
      await reshapeRecordLocales(tx.db, settings.locales);
      await reshapeScheduleLocales(tx.db, settings.locales);
      await dropValueIndexesOfLocales(tx, settings.locales);
    }
    return viewOf(tx.db, project, settings);
  });
}
