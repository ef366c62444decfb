import type { Upload } from '../../domain/uploads/upload.ts';

/** One `<title>` / `<meta>` / `<link>` tag as the API gives it (`Tag`). */
export type MetaTag = Readonly<{
  tag: string;
  attributes: Readonly<Record<string, string>> | null;
  content: string | null;
}>;

/** The site's SEO settings in one locale (`global_seo`, read by locale when it is localized). */
export type GlobalSeo = Readonly<{
  site_name?: string | null;
  title_suffix?: string | null;
  twitter_account?: string | null;
  facebook_page_url?: string | null;
  fallback_seo?: Readonly<Record<string, unknown>> | null;
}>;

/** What a page's tags are made from. */
export type SeoSources = Readonly<{
  title: string | null;
  description: string | null;
  image: Upload | null;
  imageUrl: string | null;
  twitterCard: string | null;
  noIndex: boolean;
  locale: string;
  updatedAt: Date | null;
  site: GlobalSeo;
}>;

/** DatoCMS appends the site's suffix to `<title>` only while the whole stays within 60 characters. */
const MAX_TITLE_WITH_SUFFIX = 60;

const meta = (kind: 'name' | 'property', key: string, content: string): MetaTag => ({
  tag: 'meta',
  attributes: { [kind]: key, content },
  content: null,
});

/**
 * The tags of a page: title (with the site's suffix when it fits), description, image
 * and card for Open Graph and Twitter, locale, site name and accounts, modification time,
 * and `robots: noindex` when asked.
 */
export function metaTags(sources: SeoSources): MetaTag[] {
  const tags: MetaTag[] = [];
  const { title, description, site } = sources;
  if (title) {
    const suffix = site.title_suffix ?? '';
    const withSuffix = `${title}${suffix}`;
    tags.push({
      tag: 'title',
      attributes: null,
      content: suffix && withSuffix.length <= MAX_TITLE_WITH_SUFFIX ? withSuffix : title,
    });
    tags.push(meta('property', 'og:title', title), meta('name', 'twitter:title', title));
  }
  if (description) {
    tags.push(
      meta('name', 'description', description),
      meta('property', 'og:description', description),
      meta('name', 'twitter:description', description),
    );
  }
  if (sources.image && sources.imageUrl) {
    tags.push(meta('property', 'og:image', sources.imageUrl));
    if (sources.image.width)
      tags.push(meta('property', 'og:image:width', String(sources.image.width)));
    if (sources.image.height)
      tags.push(meta('property', 'og:image:height', String(sources.image.height)));
    tags.push(meta('name', 'twitter:image', sources.imageUrl));
  }
  tags.push(meta('name', 'twitter:card', sources.twitterCard ?? 'summary'));
  tags.push(meta('property', 'og:locale', sources.locale.replace('-', '_')));
  tags.push(meta('property', 'og:type', 'website'));
  if (site.site_name) tags.push(meta('property', 'og:site_name', site.site_name));
  if (site.twitter_account) tags.push(meta('name', 'twitter:site', site.twitter_account));
  if (sources.updatedAt)
    tags.push(meta('property', 'article:modified_time', sources.updatedAt.toISOString()));
  if (site.facebook_page_url)
    tags.push(meta('property', 'article:publisher', site.facebook_page_url));
  if (sources.noIndex) tags.push(meta('name', 'robots', 'noindex'));
  return tags;
}

/** `global_seo` in one locale: a localized value is keyed by locale, a plain one is not. */
export function globalSeoIn(
  globalSeo: Readonly<Record<string, unknown>> | null,
  locales: readonly string[],
  locale: string,
): GlobalSeo {
  if (!globalSeo) return {};
  const keys = Object.keys(globalSeo);
  if (keys.length > 0 && keys.every((key) => locales.includes(key)))
    return (globalSeo[locale] ?? {}) as GlobalSeo;
  return globalSeo as GlobalSeo;
}

/** Favicon sizes by `FaviconType` variant. */
const FAVICON_SIZES = {
  icon: [16, 32, 96, 192],
  appleTouchIcon: [57, 60, 72, 76, 114, 120, 144, 152, 180],
  msApplication: [70, 150, 310],
} as const;

export type FaviconVariant = keyof typeof FAVICON_SIZES;

/** `<link>` / `<meta>` tags for the favicon at each size of the variants asked for. */
export function faviconTags(
  favicon: Upload,
  url: (params: Record<string, unknown>) => string,
  variants: readonly FaviconVariant[],
): MetaTag[] {
  const tags: MetaTag[] = [];
  for (const variant of variants) {
    for (const size of FAVICON_SIZES[variant] ?? []) {
      const href = url({ w: size, h: size });
      if (variant === 'icon')
        tags.push({
          tag: 'link',
          attributes: { sizes: `${size}x${size}`, type: favicon.mimeType, rel: 'icon', href },
          content: null,
        });
      else if (variant === 'appleTouchIcon')
        tags.push({
          tag: 'link',
          attributes: { sizes: `${size}x${size}`, rel: 'apple-touch-icon', href },
          content: null,
        });
      else
        tags.push({
          tag: 'meta',
          attributes: { name: `msapplication-square${size}x${size}logo`, content: href },
          content: null,
        });
    }
  }
  return tags;
}
