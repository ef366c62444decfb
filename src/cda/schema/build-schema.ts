import {
  GraphQLEnumType,
  type GraphQLFieldConfigMap,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  getNamedType,
} from 'graphql';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { DeliveryContext } from '../resolvers/context.ts';
import {
  collectionResolver,
  metaResolver,
  singleResolver,
  singletonResolver,
} from '../resolvers/roots.ts';
import { seoMetaTagsField, siteType, Tag } from '../seo/seo-types.ts';
import { fileTypes } from '../uploads/file-type.ts';
import { seoFieldType } from '../uploads/seo-type.ts';
import { UploadFilter, UploadOrderBy } from '../uploads/upload-filter.ts';
import {
  allUploadsResolver,
  uploadResolver,
  uploadsMetaResolver,
} from '../uploads/upload-roots.ts';
import { type BlockModels, deepFilterInputs } from './deep-filter-inputs.ts';
import { type FieldTypeRegistry, servesField } from './field-config.ts';
import { localesFilterInput } from './filters/locales-filter.ts';
import { inverseFields, type ReferencingModel } from './inverse-fields.ts';
import { leanFields } from './lean-config.ts';
import { modelFilter, modelOrderBy } from './model-inputs.ts';
import { localeEnumName, modelNames, pascalName } from './names.ts';
import { recordType } from './record-type.ts';
import { IntType } from './scalars.ts';
import { CollectionMetadata, nonNull, recordInterface } from './shared-types.ts';
import type { SchemaSnapshot } from './snapshot.ts';
import { fileGuarantees } from './strict-mode.ts';

function siteLocaleEnum(locales: readonly string[]): GraphQLEnumType {
  return new GraphQLEnumType({
    name: 'SiteLocale',
    values: Object.fromEntries(
      locales.map((locale) => [localeEnumName(locale), { value: locale }]),
    ),
  });
}

function localeArgs(siteLocale: GraphQLEnumType) {
  return {
    locale: { type: siteLocale, description: "The locale to use to fetch the field's content" },
    fallbackLocales: {
      type: new GraphQLList(nonNull(siteLocale)),
      description:
        'If you want to fallback to a default translation when a translation has not been found',
    },
  };
}

/**
 * `<T>MultiLocaleField { locale value }` per value type, made once: `String` →
 * `StringMultiLocaleField`, `[PostRecord!]!` → `PostRecordListListNonNullMultiLocaleField`,
 * and a strict-mode required `String!` → `StringNonNullMultiLocaleField` (value `String!`).
 */
function multiLocaleTypes(siteLocale: GraphQLEnumType) {
  const made = new Map<string, GraphQLObjectType>();
  return (valueType: GraphQLOutputType) => {
    const named = getNamedType(valueType).name;
    const nonNullValue = valueType instanceof GraphQLNonNull;
    const list = (nonNullValue ? valueType.ofType : valueType) instanceof GraphQLList;
    const inner = nonNullValue && list ? valueType.ofType : valueType;
    const suffix = list ? 'ListListNonNull' : nonNullValue ? 'NonNull' : '';
    const name = `${named}${suffix}MultiLocaleField`;
    let type = made.get(name);
    if (!type) {
      type = new GraphQLObjectType({
        name,
        fields: leanFields({ locale: { type: siteLocale }, value: { type: inner } }),
      });
      made.set(name, type);
    }
    return type;
  };
}

/** `allUploads`, `upload` and `_allUploadsMeta`. */
function uploadRoots(
  siteLocale: GraphQLEnumType,
  fileField: GraphQLObjectType,
): GraphQLFieldConfigMap<unknown, DeliveryContext> {
  const orderBy = { type: new GraphQLList(UploadOrderBy), defaultValue: ['_createdAt_DESC'] };
  return {
    allUploads: {
      type: nonNull(new GraphQLList(nonNull(fileField))),
      description: 'Returns a collection of assets',
      args: {
        ...localeArgs(siteLocale),
        skip: { type: IntType, description: 'Skip the first results' },
        first: { type: IntType, description: 'Limit the number of results', defaultValue: 20 },
        filter: { type: UploadFilter },
        orderBy,
      },
      resolve: allUploadsResolver,
      extensions: { cost: 'collection' },
    },
    upload: {
      type: fileField,
      description: 'Returns a specific asset',
      args: { ...localeArgs(siteLocale), filter: { type: UploadFilter }, orderBy },
      resolve: uploadResolver,
      extensions: { cost: 'single' },
    },
    _allUploadsMeta: {
      type: nonNull(CollectionMetadata),
      description: 'Returns meta information regarding an assets collection',
      args: { locale: localeArgs(siteLocale).locale, filter: { type: UploadFilter } },
      resolve: uploadsMetaResolver,
      extensions: { cost: 'meta' },
    },
  };
}

/**
 * The delivery schema of an environment as one role sees it: the models it may read
 * (`visible`) with their record types and roots, named as DatoCMS names them; `strict`
 * (`X-Exclude-Invalid: true`) narrows types to what valid records guarantee. Two models
 * whose names collide (`post` and `posts`' roots): the later created one keeps none.
 */
export function buildDeliverySchema(
  snapshot: SchemaSnapshot,
  visible: (model: ItemTypeRow) => boolean,
  { strict }: Readonly<{ strict: boolean }>,
): GraphQLSchema {
  const siteLocale = siteLocaleEnum(snapshot.locales);
  const models = snapshot.models.filter(visible);
  const taken = new Set<string>(['_site']);
  const served = models.filter((model) => {
    const names = modelNames(model.api_key);
    const roots = model.singleton ? [names.single] : [names.collection, names.single, names.meta];
    if ([names.record, ...roots].some((name) => taken.has(name))) return false;
    for (const name of [names.record, ...roots]) taken.add(name);
    return true;
  });
  // Block types, named like records', unless a record model took the name.
  const blocks = snapshot.blockModels.filter((model) => {
    const name = modelNames(model.api_key).record;
    if (taken.has(name)) return false;
    taken.add(name);
    return true;
  });
  const types = new Map<string, GraphQLObjectType>();
  const files = fileTypes(siteLocale);
  const seoField = seoFieldType(files.FileField);
  const site = { ...snapshot.site, locales: snapshot.locales };
  const RecordInterface = recordInterface(siteLocale, Tag);
  const referencing: ReferencingModel[] = [];
  const owners = new Map([...served, ...blocks].map((model) => [model.id, model.api_key]));
  const registry: FieldTypeRegistry = {
    siteLocale,
    recordType: (id) => types.get(id),
    unionName: (field, part = '') =>
      `${pascalName(owners.get(field.item_type_id) ?? '')}Model${pascalName(field.api_key)}${part}Field`,
    strict,
    fileField: (field) => (strict ? files.guaranteed(fileGuarantees(field)) : files.FileField),
    seoField,
    recordInterface: RecordInterface,
    multiLocaleType: multiLocaleTypes(siteLocale),
    inverseFields: (model) =>
      inverseFields(model, referencing, blockModels, localeArgs(siteLocale)),
    seoMetaTags: (model, fields) =>
      seoMetaTagsField(siteLocale, model.title_field_id, fields, site),
  };
  const hasModel = (id: string) => owners.has(id);
  const blockModels: BlockModels = new Map(
    blocks.map((model) => [
      model.id,
      { api_key: model.api_key, fields: snapshot.fieldsByModel.get(model.id) ?? [] },
    ]),
  );
  const deepFilter = deepFilterInputs(blocks, blockModels);
  const localesFilter = localesFilterInput(siteLocale);
  for (const model of blocks) {
    const fields = snapshot.fieldsByModel.get(model.id) ?? [];
    types.set(model.id, recordType(model, modelNames(model.api_key), fields, registry));
  }
  const query: GraphQLFieldConfigMap<unknown, DeliveryContext> = {
    _site: {
      type: nonNull(siteType(siteLocale, files.FileField, seoField, site)),
      args: localeArgs(siteLocale),
      resolve: (_root, args: { locale?: string | null; fallbackLocales?: string[] | null }) => ({
        locale: args.locale ?? snapshot.locales[0] ?? '',
        fallbackLocales: args.fallbackLocales ?? [],
      }),
      extensions: { cost: 'site' },
    },
  };
  Object.assign(query, uploadRoots(siteLocale, files.FileField));
  for (const model of served) {
    const names = modelNames(model.api_key);
    const fields = snapshot.fieldsByModel.get(model.id) ?? [];
    const servedFields = new Set(
      fields.filter((field) => servesField(field, hasModel)).map((field) => field.id),
    );
    const type = recordType(model, names, fields, registry);
    types.set(model.id, type);
    if (model.singleton) {
      query[names.single] = {
        type,
        description: 'Returns the single instance record',
        args: localeArgs(siteLocale),
        resolve: singletonResolver(model),
        extensions: { cost: 'singleton' },
      };
      continue;
    }
    const filter = modelFilter(
      names,
      model,
      fields,
      servedFields,
      (field) => deepFilter(field, model.api_key),
      localesFilter,
    );
    const orderBy = {
      type: new GraphQLList(modelOrderBy(names, model, fields, servedFields)),
      defaultValue: ['_updatedAt_DESC'],
    };
    referencing.push({ model, fields, type, filter, orderBy: orderBy.type });
    query[names.collection] = {
      type: nonNull(new GraphQLList(nonNull(type))),
      description: 'Returns a collection of records',
      args: {
        ...localeArgs(siteLocale),
        skip: { type: IntType, description: 'Skip the first results' },
        first: { type: IntType, description: 'Limit the number of results', defaultValue: 20 },
        filter: { type: filter },
        orderBy,
      },
      resolve: collectionResolver(model, fields),
      extensions: { cost: 'collection' },
    };
    query[names.single] = {
      type,
      description: 'Returns a specific record',
      args: { ...localeArgs(siteLocale), filter: { type: filter }, orderBy },
      resolve: singleResolver(model, fields),
      extensions: { cost: 'single' },
    };
    query[names.meta] = {
      type: nonNull(CollectionMetadata),
      description: 'Returns meta information regarding a record collection',
      args: { locale: localeArgs(siteLocale).locale, filter: { type: filter } },
      resolve: metaResolver(model, fields),
      extensions: { cost: 'meta' },
    };
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: leanFields(query) }),
    // Record and block types no root reaches (link or block field targets only) must still be in the schema.
    types: [RecordInterface, files.FileFieldInterface, ...types.values()],
    // The environment's locales, for the resolvers' default locale.
    extensions: { locales: snapshot.locales, blockModels },
  });
}
