import { sql } from 'kysely';
import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { Permission } from '../actor.ts';
import { dropValueIndexesOfLocales } from '../items/query/value-indexes.ts';
import { reshapeRecordLocales } from '../items/schema-changes/locale-change.ts';
import { reshapeScheduleLocales } from '../items/schema-changes/schedule-locales.ts';
import type { SiteUpdate } from './attributes.ts';
import { rewriteLocalizedDefaults } from './localized-defaults.ts';
import { checkSettingPermissions, localesChanged, validateSiteUpdate } from './rules.ts';
import { loadSite, type SiteView, viewOf } from './site-view.ts';

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
