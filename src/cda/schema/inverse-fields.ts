import {
  type GraphQLArgumentConfig,
  GraphQLEnumType,
  type GraphQLFieldConfigMap,
  type GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLType,
  GraphQLInputObjectType as InputObject,
} from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import { pageBounds } from '../limits/page-bounds.ts';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import { inverseLoader } from '../resolvers/inverse-query.ts';
import type { LinkRead } from '../resolvers/link-reads.ts';
import type { BlockModels } from './deep-filter-inputs.ts';
import {
  linkCounts,
  linkingLocalesFilter,
  NON_LOCALIZED,
} from './filters/linking-locales-filter.ts';
import { type LinkRoute, linkRoutes } from './inverse-routes.ts';
import { pascalName, pluralPascalName } from './names.ts';
import { IntType } from './scalars.ts';
import { CollectionMetadata } from './shared-types.ts';

/** What a referencing model brings: its type, inputs and fields. */
export type ReferencingModel = Readonly<{
  model: ItemTypeRow;
  fields: readonly FilterField[];
  type: GraphQLObjectType;
  filter: GraphQLInputObjectType;
  orderBy: GraphQLType;
}>;

type InverseArgs = {
  locale?: string | null;
  fallbackLocales?: string[] | null;
  first?: number | null;
  skip?: number | null;
  filter?: Record<string, unknown> | null;
  orderBy?: (string | null)[] | null;
  through?: {
    fields?: { anyIn?: string[] | null; notIn?: string[] | null } | null;
    locales?: { anyIn?: string[] | null; notIn?: string[] | null } | null;
  } | null;
};

/**
 * Where the chosen routes' links are read: a route from a non-localized field in its whole
 * value, one from a localized field in each locale `through.locales` lets count.
 */
function linkReads(
  routes: readonly LinkRoute[],
  locales: NonNullable<InverseArgs['through']>['locales'],
  siteLocales: readonly string[],
): LinkRead[] {
  return routes.flatMap(({ field, steps, holder }) =>
    field.localized
      ? siteLocales
          .filter((locale) => linkCounts(locales, locale))
          .map((locale) => ({ path: [field.id, locale], steps, holder }))
      : linkCounts(locales, NON_LOCALIZED)
        ? [{ path: [field.id], steps, holder }]
        : [],
  );
}

/**
 * `_allReferencing<Ms>` and `_allReferencing<Ms>Meta` on a model with
 * `inverse_relationships_enabled`, one pair per model whose link, links or structured
 * text fields may point at it, its own or inside its blocks at any depth (inverse-routes.ts);
 * `through: {fields: {anyIn, notIn}}` narrows the routes that count
 * (`blogPost_author`, `docPage_main__chapter_author`), `through: {locales: {anyIn, notIn}}`
 * the locales. Each list and count is loaded for every record of a level in one statement.
 */
export function inverseFields(
  target: ItemTypeRow,
  referencing: readonly ReferencingModel[],
  blocks: BlockModels,
  localeArgs: Readonly<{ locale: GraphQLArgumentConfig; fallbackLocales: GraphQLArgumentConfig }>,
): GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> {
  const config: GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> = {};
  if (!target.inverse_relationships_enabled) return config;
  for (const source of referencing) {
    const linking = linkRoutes(source.model.api_key, source.fields, target.id, blocks);
    if (linking.length === 0) continue;
    const m = pascalName(source.model.api_key);
    const t = pascalName(target.api_key);
    const fieldEnum = new GraphQLEnumType({
      name: `${m}ModelFieldsReferencing${t}Model`,
      values: Object.fromEntries(linking.map((route) => [route.name, { value: route.name }])),
    });
    const through = new InputObject({
      name: `InverseRelationshipFilterBetween${m}And${t}`,
      fields: {
        fields: {
          type: new InputObject({
            name: `InverseRelationshipFieldFilterBetween${m}And${t}`,
            fields: {
              anyIn: { type: new GraphQLList(new GraphQLNonNull(fieldEnum)) },
              notIn: { type: new GraphQLList(new GraphQLNonNull(fieldEnum)) },
            },
          }),
        },
        locales: { type: linkingLocalesFilter(localeArgs.locale.type as GraphQLEnumType) },
      },
    });
    const queryOf = (args: InverseArgs, context: DeliveryContext, page = { first: 0, skip: 0 }) => {
      const chosen = linking
        .filter(
          ({ name }) => !args.through?.fields?.anyIn || args.through.fields.anyIn.includes(name),
        )
        .filter(({ name }) => !args.through?.fields?.notIn?.includes(name));
      return {
        model: source.model,
        fields: source.fields,
        filter: args.filter,
        locale: args.locale ?? context.locales[0] ?? '',
        reads: linkReads(chosen, args.through?.locales, context.locales),
        orderBy: args.orderBy?.filter((rule): rule is string => rule !== null) ?? [
          '_updatedAt_DESC',
        ],
        ...page,
      };
    };
    const key = (args: InverseArgs) => `${source.model.id}:${JSON.stringify(args)}`;
    const plural = pluralPascalName(source.model.api_key);
    config[`_allReferencing${plural}`] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(source.type))),
      description: `Returns the ${source.model.name} records linking to this record`,
      args: {
        ...localeArgs,
        skip: { type: IntType },
        first: { type: IntType, defaultValue: 20 },
        filter: { type: source.filter },
        orderBy: { type: source.orderBy as never, defaultValue: ['_updatedAt_DESC'] },
        through: { type: through },
      },
      extensions: { cost: 'collection' },
      resolve: async (record, args: InverseArgs, context) => {
        const page = pageBounds(args.first, args.skip);
        const query = queryOf(args, context, page);
        if (page.first === 0 || query.reads.length === 0) return [];
        const rows = await inverseLoader(context, 'page', key(args), query).load(record.row.id);
        const locale = args.locale ?? record.locale;
        const fallbackLocales = args.fallbackLocales ?? record.fallbackLocales;
        return rows.map((row) => ({ row, locale, fallbackLocales }));
      },
    };
    config[`_allReferencing${plural}Meta`] = {
      type: new GraphQLNonNull(CollectionMetadata),
      args: {
        locale: localeArgs.locale,
        filter: { type: source.filter },
        through: { type: through },
      },
      extensions: { cost: 'meta' },
      resolve: async (record, args: InverseArgs, context) => {
        const query = queryOf(args, context);
        if (query.reads.length === 0) return { count: 0 };
        return {
          count: await inverseLoader(context, 'count', key(args), query).load(record.row.id),
        };
      },
    };
  }
  return config;
}
