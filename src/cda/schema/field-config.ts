import {
  GraphQLBoolean,
  type GraphQLEnumType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString,
  GraphQLUnionType,
} from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import { blockRecords } from '../resolvers/block-records.ts';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import { dastItems, dastWithBlockIds } from '../resolvers/dast.ts';
import { colorOutput, jsonOutput, videoOutput } from '../resolvers/field-outputs.ts';
import { storedValue } from '../resolvers/localized-value.ts';
import { markdownToHtml } from '../resolvers/markdown.ts';
import { fileValues } from '../uploads/file-values.ts';
import { seoValue } from '../uploads/seo-type.ts';
import { BooleanType, DateScalar, DateTime, FloatType, IntType, JsonField } from './scalars.ts';
import { ColorField, LatLonField, VideoField } from './shared-types.ts';
import { strictType } from './strict-mode.ts';

/** What a field's output needs of the schema being built. */
export type FieldTypeRegistry = Readonly<{
  siteLocale: GraphQLEnumType;
  /** The record or block type of a model the schema serves, else undefined. */
  recordType: (modelId: string) => GraphQLObjectType | undefined;
  /**
   * `<Model>Model<Field><part>Field`: the union of a field whose value may hold several
   * models (no part), or a structured text field's object and unions (`Blocks`, `Links` …).
   */
  unionName: (field: FilterField, part?: string) => string;
  /** `X-Exclude-Invalid: true`: types narrowed to what valid records guarantee. */
  strict: boolean;
  /**
   * A file or gallery field's upload type: `FileField`, or in strict mode the variant its
   * validators guarantee (`ImageFileField` …). Its locale arguments name the schema's locales.
   */
  fileField: (field: FilterField) => GraphQLObjectType;
  seoField: GraphQLObjectType;
  recordInterface: GraphQLInterfaceType;
  /** `<T>MultiLocaleField { locale value }`, one per value type. */
  multiLocaleType: (valueType: GraphQLOutputType) => GraphQLObjectType;
  /** `_allReferencing<Ms>` fields of a model's records (read once the schema is built). */
  inverseFields: (model: ItemTypeRow) => GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext>;
  /** `_seoMetaTags` of a model's records. */
  seoMetaTags: (model: ItemTypeRow, fields: readonly FilterField[]) => Config;
}>;

type FieldArgs = { locale?: string; fallbackLocales?: string[] };
// biome-ignore lint/suspicious/noExplicitAny: field configs differ in their arguments
export type Config = GraphQLFieldConfig<DeliveryRecord, DeliveryContext, any>;

/** Field types whose output is a transformation of the stored value. */
const VALUE_OUTPUTS: Readonly<Record<string, [GraphQLOutputType, (value: unknown) => unknown]>> = {
  string: [GraphQLString, (value) => value],
  slug: [GraphQLString, (value) => value],
  boolean: [BooleanType, (value) => value],
  integer: [IntType, (value) => value],
  float: [FloatType, (value) => value],
  date: [DateScalar, (value) => value],
  date_time: [DateTime, (value) => value],
  color: [ColorField, colorOutput],
  lat_lon: [LatLonField, (value) => value],
  json: [JsonField, jsonOutput],
  video: [VideoField, videoOutput],
};

/** Field types with outputs of their own (below): Markdown text, structured text. */
const OWN_OUTPUTS = new Set(['text', 'structured_text']);

/** The validator naming the models a field's value may hold, by field type. */
const TARGET_VALIDATORS: Readonly<Record<string, string>> = {
  link: 'item_item_type',
  links: 'items_item_type',
  rich_text: 'rich_text_blocks',
  single_block: 'single_block_blocks',
};

/** The models a validator (`item_item_type`, `structured_text_links` …) allows. */
function modelsAllowedBy(field: FilterField, validatorName: string | undefined): string[] {
  const validator = validatorName === undefined ? undefined : field.validators[validatorName];
  const ids = (validator as { item_types?: unknown } | undefined)?.item_types;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** The models (records or blocks) a link, links, modular content or single block field may hold. */
function targetModels(field: FilterField): string[] {
  return modelsAllowedBy(field, TARGET_VALIDATORS[field.field_type]);
}

/**
 * The record type a field's value resolves to, or the `<Model>Model<Field>Field` union of
 * them when several models are allowed (DatoCMS names a one-member union by its member).
 */
function targetOutput(
  field: FilterField,
  registry: FieldTypeRegistry,
  models: readonly string[] = targetModels(field),
  part = '',
): GraphQLOutputType | null {
  const byModel = new Map(
    models.flatMap((id) => {
      const type = registry.recordType(id);
      return type ? [[id, type] as const] : [];
    }),
  );
  const types = [...byModel.values()];
  if (types.length <= 1) return types[0] ?? null;
  return new GraphQLUnionType({
    name: registry.unionName(field, part),
    types,
    resolveType: (record: DeliveryRecord) => byModel.get(record.row.item_type_id)?.name,
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

/** A structured text value with the record holding it (its blocks' owner, its links' locale). */
type StructuredText = Readonly<{ value: unknown; owner: DeliveryRecord }>;

const LINK_NODES = new Set(['itemLink', 'inlineItem']);

/**
 * `<Model>Model<Field>Field { value blocks inlineBlocks links }`: the dast value, the blocks
 * of its `block` and `inlineBlock` nodes and the records its `itemLink` / `inlineItem`
 * nodes name, each list typed by the field's validator (`[String!]!` when it allows none).
 */
function structuredTextType(field: FilterField, registry: FieldTypeRegistry): GraphQLObjectType {
  const list = (validator: string, part: string) => {
    const type = targetOutput(field, registry, modelsAllowedBy(field, validator), part);
    return new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type ?? GraphQLString)));
  };
  const blocksOf =
    (nodeType: string) =>
    ({ value, owner }: StructuredText, _args: unknown, context: DeliveryContext) =>
      blockRecords(dastItems(value, new Set([nodeType])), owner, context);
  const linkModels = new Set(modelsAllowedBy(field, 'structured_text_links'));
  return new GraphQLObjectType<StructuredText, DeliveryContext>({
    name: registry.unionName(field),
    fields: {
      blocks: {
        type: list('structured_text_blocks', 'Blocks'),
        extensions: { cost: 'links' },
        resolve: blocksOf('block'),
      },
      inlineBlocks: {
        type: list('structured_text_inline_blocks', 'InlineBlocks'),
        extensions: { cost: 'links' },
        resolve: blocksOf('inlineBlock'),
      },
      links: {
        type: list('structured_text_links', 'Links'),
        extensions: { cost: 'links' },
        resolve: async ({ value, owner }, _args, context) => {
          const ids = new Set(dastItems(value, LINK_NODES).filter((id) => typeof id === 'string'));
          const records = await linkedRecords([...ids] as string[], owner, context);
          return records.filter((record) => linkModels.has(record.row.item_type_id));
        },
      },
      value: {
        type: new GraphQLNonNull(JsonField),
        extensions: { cost: 'link' },
        resolve: ({ value }) => dastWithBlockIds(value),
      },
    },
  });
}

const UPLOAD_FIELD_TYPES = new Set(['file', 'gallery', 'seo']);

/** File (`FileField`), gallery (`[FileField!]!`) and SEO (`SeoField`) fields: values naming uploads. */
function uploadFieldConfig(
  field: FilterField,
  registry: FieldTypeRegistry,
  args: GraphQLFieldConfigArgumentMap,
): Config | null {
  switch (field.field_type) {
    case 'file':
      return {
        type: registry.fileField(field),
        args,
        extensions: { cost: 'file' },
        resolve: async (record, given, context) => {
          const value = storedValue(record, field, given);
          if (value === null) return null;
          return (await fileValues([value], readerOf(record, given), context))[0] ?? null;
        },
      };
    case 'gallery':
      return {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(registry.fileField(field)))),
        args,
        extensions: { cost: 'links' },
        resolve: (record, given, context) => {
          const value = storedValue(record, field, given);
          return Array.isArray(value) ? fileValues(value, readerOf(record, given), context) : [];
        },
      };
    case 'seo':
      return {
        type: registry.seoField,
        args,
        resolve: (record, given) =>
          seoValue(storedValue(record, field, given), readerOf(record, given)),
      };
  }
  return null;
}

/** The locale a field's nested values are read in: the field's own arguments, else the record's. */
function readerOf(record: DeliveryRecord, given: FieldArgs) {
  return {
    locale: given.locale ?? record.locale,
    fallbackLocales: given.fallbackLocales ?? record.fallbackLocales,
  };
}

/**
 * A field's GraphQL field, or null for a link or block field none of whose models the schema
 * holds; in strict mode non-null when valid records always hold a value.
 */
export function fieldConfig(field: FilterField, registry: FieldTypeRegistry): Config | null {
  const config = nullableFieldConfig(field, registry);
  if (!config || !registry.strict) return config;
  return { ...config, type: strictType(field, config.type) };
}

function nullableFieldConfig(field: FilterField, registry: FieldTypeRegistry): Config | null {
  const args = localeArgs(field, registry);
  if (field.field_type === 'structured_text')
    return {
      type: structuredTextType(field, registry),
      args,
      resolve: (record, given) => {
        const value = storedValue(record, field, given);
        return value === null ? null : { value, owner: record };
      },
    };
  const uploadOutput = uploadFieldConfig(field, registry, args);
  if (uploadOutput) return uploadOutput;
  if (field.field_type === 'text')
    return {
      type: GraphQLString,
      args: { ...args, markdown: { type: GraphQLBoolean } },
      extensions: { cost: 'text' },
      resolve: (record, given: FieldArgs & { markdown?: boolean | null }, context) => {
        const value = storedValue(record, field, given);
        if (given.markdown !== true || typeof value !== 'string') return value;
        return context.budget.renderMarkdown(value, markdownToHtml);
      },
    };
  const valueOutput = VALUE_OUTPUTS[field.field_type];
  if (valueOutput) {
    const [type, output] = valueOutput;
    return {
      type,
      args,
      resolve: (record, given) => output(storedValue(record, field, given)),
    };
  }
  const target = targetOutput(field, registry);
  if (!target) return null;
  const many = (type: GraphQLOutputType) =>
    new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)));
  switch (field.field_type) {
    case 'link':
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
    case 'links':
      return {
        type: many(target),
        args,
        extensions: { cost: 'links' },
        resolve: (record, given, context) => {
          const ids = storedValue(record, field, given);
          return Array.isArray(ids) ? linkedRecords(ids as string[], record, context) : [];
        },
      };
    case 'rich_text':
      return {
        type: many(target),
        args,
        extensions: { cost: 'links' },
        resolve: (record, given, context) => {
          const refs = storedValue(record, field, given);
          return Array.isArray(refs) ? blockRecords(refs, record, context) : [];
        },
      };
    case 'single_block':
      return {
        type: target,
        args,
        extensions: { cost: 'link' },
        resolve: async (record, given, context) => {
          const ref = storedValue(record, field, given);
          if (ref === null) return null;
          return (await blockRecords([ref], record, context))[0] ?? null;
        },
      };
  }
  return null;
}

/** Whether `fieldConfig` gives the field a GraphQL field (filters and orderings follow it). */
export function servesField(field: FilterField, hasModel: (modelId: string) => boolean): boolean {
  if (VALUE_OUTPUTS[field.field_type] || OWN_OUTPUTS.has(field.field_type)) return true;
  if (UPLOAD_FIELD_TYPES.has(field.field_type)) return true;
  return targetModels(field).some(hasModel);
}
