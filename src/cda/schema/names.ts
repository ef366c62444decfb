import { pluralWord } from './inflection.ts';

/**
 * The names DatoCMS's generated schemas give to models and fields: `blog_post` →
 * `BlogPostRecord`, `allBlogPosts`, `blogPost`, `_allBlogPostsMeta`, `BlogPostModelFilter`;
 * field `cover_image` → `coverImage`.
 */

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function words(apiKey: string): string[] {
  return apiKey.split('_').filter((word) => word !== '');
}

/**
 * Names already computed: a schema build asks for the same field api keys (`title`,
 * `slug` …) model after model. Bounded: emptied when full.
 */
const pascalNames = new Map<string, string>();
const KEPT_NAMES = 20_000;

/** `blog_post` → `BlogPost`. */
export function pascalName(apiKey: string): string {
  let name = pascalNames.get(apiKey);
  if (name === undefined) {
    name = words(apiKey).map(capitalize).join('');
    if (pascalNames.size >= KEPT_NAMES) pascalNames.clear();
    pascalNames.set(apiKey, name);
  }
  return name;
}

/** `cover_image` → `coverImage`, `seo_h1` → `seoH1`. */
export function camelName(apiKey: string): string {
  const name = pascalName(apiKey);
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** `blog_post` → `BlogPosts`, `person` → `People`. */
export function pluralPascalName(apiKey: string): string {
  const parts = words(apiKey);
  const last = parts.pop() ?? '';
  return [...parts, pluralWord(last.toLowerCase())].map(capitalize).join('');
}

export type ModelNames = Readonly<{
  record: string;
  filter: string;
  orderBy: string;
  collection: string;
  single: string;
  meta: string;
}>;

export function modelNames(apiKey: string): ModelNames {
  const pascal = pascalName(apiKey);
  const plural = pluralPascalName(apiKey);
  return {
    record: `${pascal}Record`,
    filter: `${pascal}ModelFilter`,
    orderBy: `${pascal}ModelOrderBy`,
    collection: `all${plural}`,
    single: camelName(apiKey),
    meta: `_all${plural}Meta`,
  };
}

/** A site locale as a `SiteLocale` enum value: `en-US` → `en_US`. */
export function localeEnumName(locale: string): string {
  return locale.replace(/-/g, '_');
}
