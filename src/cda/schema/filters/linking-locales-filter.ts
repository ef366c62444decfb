import { GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull } from 'graphql';

/** The `LinkingLocale` value standing for non-localized link fields. */
export const NON_LOCALIZED = '_nonLocalized';

const made = new WeakMap<GraphQLEnumType, GraphQLInputObjectType>();

/**
 * `through: {locales: LinkingLocalesFilter}` of inverse relationships: `anyIn` / `notIn`
 * of `LinkingLocale`s (`_nonLocalized` and the site's locales) name in which locales a
 * link counts. Made once per schema build (its values are the build's `SiteLocale`s).
 */
export function linkingLocalesFilter(siteLocale: GraphQLEnumType): GraphQLInputObjectType {
  let input = made.get(siteLocale);
  if (input) return input;
  const linkingLocale = new GraphQLEnumType({
    name: 'LinkingLocale',
    values: {
      [NON_LOCALIZED]: { value: NON_LOCALIZED },
      ...Object.fromEntries(
        siteLocale.getValues().map((locale) => [locale.name, { value: locale.value }]),
      ),
    },
  });
  const locales = { type: new GraphQLList(new GraphQLNonNull(linkingLocale)) };
  input = new GraphQLInputObjectType({
    name: 'LinkingLocalesFilter',
    description: 'Linking locales',
    fields: { anyIn: locales, notIn: locales },
  });
  made.set(siteLocale, input);
  return input;
}

type LocalesArg = { anyIn?: string[] | null; notIn?: string[] | null } | null | undefined;

/** Whether a link held in `locale` (or NON_LOCALIZED) counts under `through.locales`. */
export function linkCounts(locales: LocalesArg, locale: string): boolean {
  if (locales?.anyIn && !locales.anyIn.includes(locale)) return false;
  return !locales?.notIn?.includes(locale);
}
