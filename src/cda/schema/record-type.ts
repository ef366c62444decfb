import { type GraphQLFieldConfigMap, GraphQLObjectType } from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import { type FieldTypeRegistry, fieldConfig } from './field-config.ts';
import { camelName, type ModelNames } from './names.ts';
import { RecordInterface, recordMetaFields } from './shared-types.ts';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

/** The meta fields' values, from the record's columns. */
function metaResolvers(model: ItemTypeRow, drafts: (context: DeliveryContext) => boolean) {
  return {
    id: (record: DeliveryRecord) => record.row.id,
    _createdAt: (record: DeliveryRecord) => iso(record.row.created_at),
    _updatedAt: (record: DeliveryRecord) => iso(record.row.updated_at),
    _publishedAt: (record: DeliveryRecord) => iso(record.row.published_at),
    _firstPublishedAt: (record: DeliveryRecord) => iso(record.row.first_published_at),
    _publicationScheduledAt: (record: DeliveryRecord) => iso(record.row.publication_scheduled_at),
    _unpublishingScheduledAt: (record: DeliveryRecord) => iso(record.row.unpublishing_scheduled_at),
    // The published version is what a read without drafts sees: its status is published.
    _status: (record: DeliveryRecord, _args: unknown, context: DeliveryContext) =>
      drafts(context) ? record.row.status : 'published',
    _isValid: (record: DeliveryRecord) => record.row.valid,
    _modelApiKey: () => model.api_key,
  };
}

/** `<Model>Record` (block models' too): the meta fields, then the model's served fields by name. */
export function recordType(
  model: ItemTypeRow,
  names: ModelNames,
  fields: readonly FilterField[],
  registry: FieldTypeRegistry,
): GraphQLObjectType {
  return new GraphQLObjectType<DeliveryRecord, DeliveryContext>({
    name: names.record,
    description: `${model.modular_block ? 'Block' : 'Record'} of type ${model.name} (${model.api_key})`,
    interfaces: [RecordInterface],
    isTypeOf: (record: DeliveryRecord) => record.row.item_type_id === model.id,
    fields: () => {
      const meta = metaResolvers(model, (context) => context.drafts);
      const config: GraphQLFieldConfigMap<DeliveryRecord, DeliveryContext> = {};
      for (const [name, definition] of Object.entries(recordMetaFields())) {
        config[name] = { ...definition, resolve: meta[name as keyof typeof meta] };
      }
      for (const field of fields) {
        const output = fieldConfig(field, registry);
        if (output) config[camelName(field.api_key)] = output;
      }
      return Object.fromEntries(
        Object.entries(config).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    },
  });
}
