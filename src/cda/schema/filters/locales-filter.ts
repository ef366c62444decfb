import { type GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull } from 'graphql';

/**
 * `LocalesFilter` (the `_locales` filter of models with localized fields, DatoCMS's
 * Localization page): `allIn` records in every locale named, `anyIn` in one at least,
 * `notIn` in none. Its values are the schema's `SiteLocale`s, so one is made per build.
 */
export function localesFilterInput(siteLocale: GraphQLEnumType): GraphQLInputObjectType {
  const locales = { type: new GraphQLList(new GraphQLNonNull(siteLocale)) };
  return new GraphQLInputObjectType({
    name: 'LocalesFilter',
    description: 'Specifies how to filter by locale',
    fields: { allIn: locales, anyIn: locales, notIn: locales },
  });
}
