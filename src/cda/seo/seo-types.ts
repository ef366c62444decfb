import {
  GraphQLEnumType as EnumType,
  type GraphQLEnumType,
  type GraphQLFieldConfig,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
} from 'graphql';
import type { FilterField } from '../../domain/items/model-fields.ts';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import { storedValue } from '../resolvers/localized-value.ts';
import { BooleanType, MetaTagAttributes } from '../schema/scalars.ts';
import { imageUrl } from '../uploads/image-url.ts';
import type { SeoValue } from '../uploads/seo-type.ts';
import {
  type FaviconVariant,
  faviconTags,
  type GlobalSeo,
  globalSeoIn,
  metaTags,
} from './meta-tags.ts';

/** The site settings SEO tags are made from. */
export type SiteSeoSettings = Readonly<{
  noIndex: boolean;
  favicon: string | null;
  globalSeo: Readonly<Record<string, unknown>> | null;
  locales: readonly string[];
}>;

export const Tag = new GraphQLObjectType({
  name: 'Tag',
  fields: {
    attributes: { type: MetaTagAttributes },
    content: { type: GraphQLString },
    tag: { type: new GraphQLNonNull(GraphQLString) },
  },
});

const FaviconType = new EnumType({
  name: 'FaviconType',
  values: {
    appleTouchIcon: { value: 'appleTouchIcon' },
    icon: { value: 'icon' },
    msApplication: { value: 'msApplication' },
  },
});

const tagList = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Tag)));

type SiteRoot = Readonly<{ locale: string; fallbackLocales: readonly string[] }>;
type LocaleArgs = { locale?: string | null; fallbackLocales?: string[] | null };

function uploadUrl(context: DeliveryContext, path: string, params: Record<string, unknown> = {}) {
  return imageUrl(
    { url: `${context.assetsBase}${path}`, width: null, height: null, focalPoint: null },
    params,
  );
}

/** `Site`: locales, favicon (and its tags), the global SEO settings, `noIndex`. */
export function siteType(
  siteLocale: GraphQLEnumType,
  fileField: GraphQLObjectType,
  seoField: GraphQLObjectType,
  site: SiteSeoSettings,
): GraphQLObjectType {
  const GlobalSeoField = new GraphQLObjectType<GlobalSeo & { reader: SiteRoot }, DeliveryContext>({
    name: 'GlobalSeoField',
    fields: {
      facebookPageUrl: { type: GraphQLString, resolve: (seo) => seo.facebook_page_url ?? null },
      fallbackSeo: {
        type: seoField,
        resolve: (seo): SeoValue | null =>
          seo.fallback_seo ? { stored: seo.fallback_seo, reader: seo.reader } : null,
      },
      siteName: { type: GraphQLString, resolve: (seo) => seo.site_name ?? null },
      titleSuffix: { type: GraphQLString, resolve: (seo) => seo.title_suffix ?? null },
      twitterAccount: { type: GraphQLString, resolve: (seo) => seo.twitter_account ?? null },
    },
  });
  const localeArgs = {
    locale: { type: siteLocale },
    fallbackLocales: { type: new GraphQLList(new GraphQLNonNull(siteLocale)) },
  };
  return new GraphQLObjectType<SiteRoot, DeliveryContext>({
    name: 'Site',
    fields: {
      favicon: {
        type: fileField,
        extensions: { cost: 'file' },
        resolve: async (root, _args, context) => {
          if (!site.favicon) return null;
          const upload = await context.uploads.load(site.favicon);
          return upload ? { upload, metadata: null, ...root } : null;
        },
      },
      faviconMetaTags: {
        type: tagList,
        args: { variants: { type: new GraphQLList(FaviconType), defaultValue: ['icon'] } },
        resolve: async (_root, args: { variants: (FaviconVariant | null)[] }, context) => {
          if (!site.favicon) return [];
          const upload = await context.uploads.load(site.favicon);
          if (!upload) return [];
          const variants = args.variants.filter((v): v is FaviconVariant => v !== null);
          return faviconTags(upload, (params) => uploadUrl(context, upload.path, params), variants);
        },
      },
      globalSeo: {
        type: GlobalSeoField,
        args: localeArgs,
        resolve: (root, args: LocaleArgs) => {
          const locale = args.locale ?? root.locale;
          if (!site.globalSeo) return null;
          return {
            ...globalSeoIn(site.globalSeo, site.locales, locale),
            reader: { locale, fallbackLocales: args.fallbackLocales ?? root.fallbackLocales },
          };
        },
      },
      locales: {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(siteLocale))),
        resolve: () => site.locales,
      },
      noIndex: { type: BooleanType, resolve: () => site.noIndex },
    },
  });
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** A model's first field of a type whose stored value the test accepts. */
function firstField(fields: readonly FilterField[], type: string) {
  return fields.find((field) => field.field_type === type) ?? null;
}

/**
 * `_seoMetaTags(locale)`: the model's first SEO field over the site's fallback SEO; a
 * missing title comes from the model's title field, a missing image from its first file
 * field.
 */
export function seoMetaTagsField(
  siteLocale: GraphQLEnumType,
  titleFieldId: string | null,
  fields: readonly FilterField[],
  site: SiteSeoSettings,
): GraphQLFieldConfig<DeliveryRecord, DeliveryContext, { locale?: string | null }> {
  const seoField = firstField(fields, 'seo');
  const titleField = fields.find((field) => field.id === titleFieldId) ?? null;
  const fileField = firstField(fields, 'file');
  return {
    type: tagList,
    args: { locale: { type: siteLocale } },
    extensions: { cost: 'file' },
    resolve: async (record, args, context) => {
      const locale = args.locale ?? record.locale;
      const given = { locale };
      const seo = (seoField ? storedValue(record, seoField, given) : null) as Record<
        string,
        unknown
      > | null;
      const globalSeo = globalSeoIn(site.globalSeo, site.locales, locale);
      const fallback = (globalSeo.fallback_seo ?? {}) as Record<string, unknown>;
      const title =
        text(seo?.title) ??
        (titleField ? text(storedValue(record, titleField, given)) : null) ??
        text(fallback.title);
      const file = fileField
        ? (storedValue(record, fileField, given) as { upload_id?: unknown } | null)
        : null;
      const imageId = text(seo?.image) ?? text(file?.upload_id) ?? text(fallback.image);
      const image = imageId ? await context.uploads.load(imageId) : null;
      return metaTags({
        title,
        description: text(seo?.description) ?? text(fallback.description),
        image,
        imageUrl: image ? uploadUrl(context, image.path) : null,
        twitterCard: text(seo?.twitter_card) ?? text(fallback.twitter_card),
        noIndex: site.noIndex || seo?.no_index === true,
        locale,
        updatedAt: record.row.updated_at,
        site: globalSeo,
      });
    },
  };
}
