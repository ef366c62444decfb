import type { EnvQueryable } from '../../db/environment-scope.ts';

/** The site's locales, in the site's order. */
export async function siteLocales(db: EnvQueryable): Promise<string[]> {
  const site = await db.selectFrom('site_settings').select('locales').executeTakeFirstOrThrow();
  return site.locales;
}
