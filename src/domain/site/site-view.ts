import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { FieldRow, FieldsetRow, SiteRow, SiteSettingsRow } from '../../db/schema.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { ModelView } from '../schema/model-state.ts';

/** The project's site row combined with one environment's settings and its models' ids. */
export type SiteView = { project: SiteRow; settings: SiteSettingsRow; itemTypeIds: string[] };

/** The site with what `include` asked for: its models, their fields and fieldsets. */
export type SiteWithSchema = {
  site: SiteView;
  models?: readonly ModelView[];
  fields?: FieldRow[];
  fieldsets?: FieldsetRow[];
};

export async function viewOf(
  db: EnvQueryable,
  project: SiteRow,
  settings: SiteSettingsRow,
): Promise<SiteView> {
  const itemTypes = await db.selectFrom('item_types').select('id').orderBy('seq').execute();
  return { project, settings, itemTypeIds: itemTypes.map((itemType) => itemType.id) };
}

/** The project's site row and the environment's settings, through one handle each. */
export async function loadSite(
  project: Queryable,
  db: EnvQueryable,
): Promise<{ project: SiteRow; settings: SiteSettingsRow }> {
  const [projectRow, settings] = await Promise.all([
    project.selectFrom('site').selectAll().executeTakeFirstOrThrow(),
    db.selectFrom('site_settings').selectAll().executeTakeFirstOrThrow(),
  ]);
  return { project: projectRow, settings };
}
