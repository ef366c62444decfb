import {
  type GraphQLFieldConfigMap,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
} from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import { localesOf } from '../../domain/items/locale-content.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import type { DeliveryRow } from '../resolvers/rows.ts';
import { allLocalesFields } from './all-locales.ts';
import { type FieldTypeRegistry, fieldConfig } from './field-config.ts';
import { leanFields } from './lean-config.ts';
import { camelName, type ModelNames } from './names.ts';
import { IntType } from './scalars.ts';
import { recordMetaFields } from './shared-types.ts';
import { promisesPublication } from './strict-mode.ts';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

/**
 * The meta fields' values, from the record's columns. When the type promises publication
 * times (`promisesPublication`), a record that still has none reads as published when its
 * current version was saved (first when created): only drafts can lack them, a record saved
 * while its model had draft mode or withdrawn through the CMA, and without draft mode saving
 * is what publishes.
 */
function metaResolvers(
  model: ItemTypeRow,
  drafts: (context: DeliveryContext) => boolean,
  promisedPublication: boolean,
) {
  const published = (record: DeliveryRecord) =>
    record.row.published_at ?? (promisedPublication ? record.row.updated_at : null);
  const firstPublished = (record: DeliveryRecord) =>
    record.row.first_published_at ?? (promisedPublication ? record.row.created_at : null);
  return {
    id: (record: DeliveryRecord) => record.row.id,
    _createdAt: (record: DeliveryRecord) => iso(record.row.created_at),
    _updatedAt: (record: DeliveryRecord) => iso(record.row.updated_at),
    _publishedAt: (record: DeliveryRecord) => iso(published(record)),
    _firstPublishedAt: (record: DeliveryRecord) => iso(firstPublished(record)),
    _publicationScheduledAt: (record: DeliveryRecord) => iso(record.row.publication_scheduled_at),
    _unpublishingScheduledAt: (record: DeliveryRecord) => iso(record.row.unpublishing_scheduled_at),
    // The published version is what a read without drafts sees: its status is published.
    _status: (record: DeliveryRecord, _args: unknown, context: DeliveryContext) =>
      drafts(context) ? record.row.status : 'published',
    _isValid: (record: DeliveryRecord) => record.row.valid,
    _modelApiKey: () => model.api_key,
  };
}

/** A related record read in the locale of the record it was reached from. */
const inLocaleOf = (record: DeliveryRecord, row: DeliveryRow): DeliveryRecord => ({
  row,
  locale: record.locale,
  fallbackLocales: record.fallbackLocales,
});

/**
 * `parent` and `children` (by position, loaded per level) of tree models; `position` of
 * tree and sortable ones.
 */
function treeFields(
  model: ItemTypeRow,
  type: GraphQLObjectType,
): GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> {
  const config: GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> = {};
  if (model.tree) {
    config.parent = {
      type,
      extensions: { cost: 'link' },
      resolve: async (record, _args, context) => {
        if (record.row.parent_id === null) return null;
        const row = await context.records.load(record.row.parent_id);
        return row ? inLocaleOf(record, row) : null;
      },
    };
    config.children = {
      type: new GraphQLList(type),
      extensions: { cost: 'links' },
      resolve: async (record, _args, context) =>
        (await context.children.load(record.row.id)).map((row) => inLocaleOf(record, row)),
    };
  }
  if (model.tree || model.sortable)
    config.position = { type: IntType, resolve: (record) => record.row.position };
  return config;
}

/**
 * `_locales` of models with localized fields: the locales the served version is in (the
 * keys its localized values hold), in site order.
 */
function localesField(
  fields: readonly FilterField[],
  registry: FieldTypeRegistry,
): GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> {
  const localized = fields.filter((field) => field.localized);
  if (localized.length === 0) return {};
  return {
    _locales: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(registry.siteLocale))),
      resolve: (record, _args, context) => localesOf(localized, record.row.values, context.locales),
    },
  };
}

/** `<Model>Record` (block models' too): the meta fields, then the model's served fields by name. */
export function recordType(
  model: ItemTypeRow,
  names: ModelNames,
  fields: readonly FilterField[],
  registry: FieldTypeRegistry,
): GraphQLObjectType {
  const type: GraphQLObjectType = new GraphQLObjectType<DeliveryRecord, DeliveryContext>({
    name: names.record,
    description: `${model.modular_block ? 'Block' : 'Record'} of type ${model.name} (${model.api_key})`,
    interfaces: [registry.recordInterface],
    isTypeOf: (record: DeliveryRecord) => record.row.item_type_id === model.id,
    fields: () => {
      const promised = registry.strict && promisesPublication(model);
      const meta = metaResolvers(model, (context) => context.drafts, promised);
      const config: GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> = {};
      for (const [name, definition] of Object.entries(recordMetaFields(promised))) {
        config[name] = { ...definition, resolve: meta[name as keyof typeof meta] };
      }
      for (const field of fields) {
        const output = fieldConfig(field, registry);
        if (output) config[camelName(field.api_key)] = output;
      }
      Object.assign(
        config,
        treeFields(model, type),
        localesField(fields, registry),
        allLocalesFields(fields, config, registry),
        model.modular_block ? {} : registry.inverseFields(model),
      );
      config._seoMetaTags = registry.seoMetaTags(model, fields);
      config._editingUrl = {
        type: GraphQLString,
        resolve: (record, _args, context) =>
          context.editingBase === null
            ? null
            : `${context.editingBase}/editor/item_types/${model.id}/items/${record.row.id}/edit`,
      };
      return leanFields(
        Object.fromEntries(Object.entries(config).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      );
    },
  });
  return type;
}
