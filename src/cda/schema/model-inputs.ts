import {
  GraphQLEnumType,
  type GraphQLEnumValueConfigMap,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
} from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import { leanEnumValues, leanInputFields } from './lean-config.ts';
import { camelName, type ModelNames } from './names.ts';
import { FILTERS, META_FILTERS } from './shared-types.ts';

/** Field types `orderBy` can sort by (DatoCMS: string, integer, float, boolean, dates). */
const ORDERABLE = new Set(['string', 'integer', 'float', 'boolean', 'date', 'date_time']);

/** Meta fields `orderBy` can sort by, in DatoCMS's order. */
const META_ORDER = [
  '_createdAt',
  'id',
  '_firstPublishedAt',
  '_publicationScheduledAt',
  '_unpublishingScheduledAt',
  '_publishedAt',
  '_status',
  '_updatedAt',
  '_isValid',
];

// localeCompare's order, without its per-call collator set-up (a build sorts every model's fields twice).
const collator = new Intl.Collator();
const byApiKey = (a: FilterField, b: FilterField) => collator.compare(a.api_key, b.api_key);

/**
 * `<Model>ModelFilter`: meta fields (`_locales` on models with localized fields, `parent`
 * on tree models, `position` on sortable and tree ones), then the model's filterable
 * fields, then OR and AND.
 */
export function modelFilter(
  names: ModelNames,
  model: ItemTypeRow,
  fields: readonly FilterField[],
  servedFields: ReadonlySet<string>,
  deepFilter: (field: FilterField) => GraphQLInputType | undefined,
  localesFilter: GraphQLInputType,
): GraphQLInputObjectType {
  const filter: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: names.filter,
    fields: () => {
      const config: GraphQLInputFieldConfigMap = {
        _createdAt: { type: META_FILTERS._createdAt },
        id: { type: META_FILTERS.id },
        _firstPublishedAt: { type: META_FILTERS.publishedAt },
        _publicationScheduledAt: { type: META_FILTERS.publishedAt },
        _unpublishingScheduledAt: { type: META_FILTERS.publishedAt },
        _publishedAt: { type: META_FILTERS.publishedAt },
        _status: { type: META_FILTERS._status },
        _updatedAt: { type: META_FILTERS._updatedAt },
        _isValid: { type: FILTERS.boolean },
        ...(fields.some((field) => field.localized) ? { _locales: { type: localesFilter } } : {}),
        ...(model.tree ? { parent: { type: META_FILTERS.parent } } : {}),
        ...(model.sortable || model.tree ? { position: { type: META_FILTERS.position } } : {}),
      };
      for (const field of [...fields].sort(byApiKey)) {
        // A deep-filtered field's filter reaches into its blocks (structured text's keeps its own operators under `value`).
        const input = deepFilter(field) ?? FILTERS[field.field_type as keyof typeof FILTERS];
        if (input && servedFields.has(field.id)) config[camelName(field.api_key)] = { type: input };
      }
      config.OR = { type: new GraphQLList(filter) };
      config.AND = { type: new GraphQLList(filter) };
      return leanInputFields(config);
    },
  });
  return filter;
}

/** `<Model>ModelOrderBy`: `<name>_ASC` / `<name>_DESC` of meta fields, then sortable fields. */
export function modelOrderBy(
  names: ModelNames,
  model: ItemTypeRow,
  fields: readonly FilterField[],
  servedFields: ReadonlySet<string>,
): GraphQLEnumType {
  const sortable = [
    ...META_ORDER,
    ...(model.sortable || model.tree ? ['position'] : []),
    ...[...fields]
      .sort(byApiKey)
      .filter((field) => ORDERABLE.has(field.field_type) && servedFields.has(field.id))
      .map((field) => camelName(field.api_key)),
  ];
  const values: GraphQLEnumValueConfigMap = {};
  for (const name of sortable) {
    values[`${name}_ASC`] = { value: `${name}_ASC` };
    values[`${name}_DESC`] = { value: `${name}_DESC` };
  }
  return new GraphQLEnumType({ name: names.orderBy, values: leanEnumValues(values) });
}
