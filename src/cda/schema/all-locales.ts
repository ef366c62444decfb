import {
  GraphQLBoolean,
  type GraphQLFieldConfigMap,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLResolveInfo,
} from 'graphql';
import type { FilterField } from '../../domain/items/model-fields.ts';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import type { Config, FieldTypeRegistry } from './field-config.ts';
import { camelName, pascalName } from './names.ts';

type AllLocalesArgs = { fallbackLocales?: string[] | null; markdown?: boolean | null };

/**
 * `_all<Field>Locales(fallbackLocales)` of each localized field: `[<T>MultiLocaleField!]`,
 * one entry per site locale whose value (after the fallbacks) is present, each value
 * resolved as the field itself resolves it in that locale.
 */
export function allLocalesFields(
  fields: readonly FilterField[],
  served: Readonly<Record<string, Config>>,
  registry: FieldTypeRegistry,
): GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> {
  const config: GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> = {};
  for (const field of fields) {
    const output = served[camelName(field.api_key)];
    if (!field.localized || !output?.resolve) continue;
    const resolve = output.resolve;
    const entry = registry.multiLocaleType(output.type);
    config[`_all${pascalName(field.api_key)}Locales`] = {
      type: new GraphQLList(new GraphQLNonNull(entry)),
      args: {
        fallbackLocales: { type: new GraphQLList(new GraphQLNonNull(registry.siteLocale)) },
        // A text field's values render as its own do (`<field>(markdown: true)`).
        ...(field.field_type === 'text' ? { markdown: { type: GraphQLBoolean } } : {}),
      },
      extensions: { cost: 'allLocales' },
      resolve: async (
        record,
        args: AllLocalesArgs,
        context: DeliveryContext,
        info: GraphQLResolveInfo,
      ) => {
        const entries = await Promise.all(
          context.locales.map(async (locale) => ({
            locale,
            value: await resolve(
              record,
              { locale, fallbackLocales: args.fallbackLocales ?? [], markdown: args.markdown },
              context,
              info,
            ),
          })),
        );
        return entries.filter(
          ({ value }) => value !== null && !(Array.isArray(value) && value.length === 0),
        );
      },
    };
  }
  return config;
}
