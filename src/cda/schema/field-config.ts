import {
  type GraphQLEnumType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString,
  GraphQLUnionType,
} from 'graphql';
import type { FilterField } from '../../domain/items/model-fields.ts';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import { colorOutput, jsonOutput, seoOutput, videoOutput } from '../resolvers/field-outputs.ts';
import { storedValue } from '../resolvers/localized-value.ts';
import { BooleanType, DateScalar, DateTime, FloatType, IntType, JsonField } from './scalars.ts';
import { ColorField, LatLonField, SeoField, VideoField } from './shared-types.ts';

/** What a field's output needs of the schema being built. */
export type FieldTypeRegistry = Readonly<{
  siteLocale: GraphQLEnumType;
  /** The record type of a model the schema serves, else undefined. */
  recordType: (modelId: string) => GraphQLObjectType | undefined;
  /** `<Model>Model<Field>Field`: the union name of a link field with several targets. */
  unionName: (field: FilterField) => string;
}>;

type FieldArgs = { locale?: string; fallbackLocales?: string[] };
type Config = GraphQLFieldConfig<DeliveryRecord, DeliveryContext, FieldArgs>;

/** Field types whose output is a transformation of the stored value. */
const VALUE_OUTPUTS: Readonly<Record<string, [GraphQLOutputType, (value: unknown) => unknown]>> = {
  string: [GraphQLString, (value) => value],
  slug: [GraphQLString, (value) => value],
  text: [GraphQLString, (value) => value],
  boolean: [BooleanType, (value) => value],
  integer: [IntType, (value) => value],
  float: [FloatType, (value) => value],
  date: [DateScalar, (value) => value],
  date_time: [DateTime, (value) => value],
  color: [ColorField, colorOutput],
  lat_lon: [LatLonField, (value) => value],
  json: [JsonField, jsonOutput],
  seo: [SeoField, seoOutput],
  video: [VideoField, videoOutput],
};

/** The models a link or links field may point to (its item(s)_item_type validator). */
function linkTargets(field: FilterField): string[] {
  const validator =
    field.validators[field.field_type === 'link' ? 'item_item_type' : 'items_item_type'];
  const ids = (validator as { item_types?: unknown } | undefined)?.item_types;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** The record type, or the union of the record types, a link field resolves to. */
function linkOutput(field: FilterField, registry: FieldTypeRegistry): GraphQLOutputType | null {
  const types = linkTargets(field)
    .map((id) => registry.recordType(id))
    .filter((type): type is GraphQLObjectType => type !== undefined);
  if (types.length === 0) return null;
  if (types.length === 1) return types[0] as GraphQLObjectType;
  const byModel = new Map(
    linkTargets(field).flatMap((id) => {
      const type = registry.recordType(id);
      return type ? [[id, type.name] as const] : [];
    }),
  );
  return new GraphQLUnionType({
    name: registry.unionName(field),
    types,
    resolveType: (record: DeliveryRecord) => byModel.get(record.row.item_type_id),
  });
}

function localeArgs(
  field: FilterField,
  registry: FieldTypeRegistry,
): GraphQLFieldConfigArgumentMap {
  if (!field.localized) return {};
  return {
    locale: {
      type: registry.siteLocale,
      description: "The locale to use to fetch the field's content",
    },
    fallbackLocales: {
      type: new GraphQLList(new GraphQLNonNull(registry.siteLocale)),
      description:
        'If you want to fallback to a default translation when a translation has not been found',
    },
  };
}

/** Linked records in the linking record's locale; unpublished or unreadable ones drop out. */
async function linkedRecords(
  ids: readonly string[],
  parent: DeliveryRecord,
  context: DeliveryContext,
): Promise<DeliveryRecord[]> {
  const rows = await context.records.loadMany(ids);
  return rows.flatMap((row) => {
    if (row === null || row instanceof Error) return [];
    return [{ row, locale: parent.locale, fallbackLocales: parent.fallbackLocales }];
  });
}

/**
 * A field's GraphQL field, or null for a type the API does not serve yet (files,
 * galleries, blocks, structured text) or a link none of whose targets the schema holds.
 */
export function fieldConfig(field: FilterField, registry: FieldTypeRegistry): Config | null {
  const args = localeArgs(field, registry);
  const valueOutput = VALUE_OUTPUTS[field.field_type];
  if (valueOutput) {
    const [type, output] = valueOutput;
    return {
      type,
      args,
      resolve: (record, given) => output(storedValue(record, field, given)),
    };
  }
  if (field.field_type === 'link' || field.field_type === 'links') {
    const target = linkOutput(field, registry);
    if (!target) return null;
    if (field.field_type === 'link')
      return {
        type: target,
        args,
        extensions: { cost: 'link' },
        resolve: async (record, given, context) => {
          const id = storedValue(record, field, given);
          if (typeof id !== 'string') return null;
          return (await linkedRecords([id], record, context))[0] ?? null;
        },
      };
    return {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(target))),
      args,
      extensions: { cost: 'links' },
      resolve: (record, given, context) => {
        const ids = storedValue(record, field, given);
        return Array.isArray(ids) ? linkedRecords(ids as string[], record, context) : [];
      },
    };
  }
  return null;
}

/** Whether `fieldConfig` gives the field a GraphQL field (filters and orderings follow it). */
export function servesField(field: FilterField, hasModel: (modelId: string) => boolean): boolean {
  if (VALUE_OUTPUTS[field.field_type]) return true;
  if (field.field_type === 'link' || field.field_type === 'links')
    return linkTargets(field).some(hasModel);
  return false;
}
