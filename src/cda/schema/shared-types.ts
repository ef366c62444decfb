import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLNullableType,
  GraphQLObjectType,
  GraphQLString,
} from 'graphql';
import { StringMatchesFilter } from './filters/string-matches-filter.ts';
import { StructuredTextFilter } from './filters/structured-text-filter.ts';
import {
  BooleanType,
  DateScalar,
  DateTime,
  FloatType,
  IntType,
  ItemId,
  UploadId,
} from './scalars.ts';

/** Types every generated schema holds, whatever its models: named as DatoCMS names them. */

export const nonNull = <T extends GraphQLNullableType>(type: T) => new GraphQLNonNull(type);

export const ItemStatus = new GraphQLEnumType({
  name: 'ItemStatus',
  values: {
    draft: { value: 'draft' },
    updated: { value: 'updated' },
    published: { value: 'published' },
  },
});

export const CollectionMetadata = new GraphQLObjectType({
  name: 'CollectionMetadata',
  fields: { count: { type: nonNull(IntType) } },
});

export const ColorField = new GraphQLObjectType({
  name: 'ColorField',
  fields: {
    alpha: { type: nonNull(IntType) },
    blue: { type: nonNull(IntType) },
    cssRgb: { type: nonNull(GraphQLString) },
    green: { type: nonNull(IntType) },
    hex: { type: nonNull(GraphQLString) },
    red: { type: nonNull(IntType) },
  },
});

export const LatLonField = new GraphQLObjectType({
  name: 'LatLonField',
  fields: { latitude: { type: nonNull(FloatType) }, longitude: { type: nonNull(FloatType) } },
});

export const VideoField = new GraphQLObjectType({
  name: 'VideoField',
  fields: {
    height: { type: nonNull(IntType) },
    provider: { type: nonNull(GraphQLString) },
    providerUid: { type: nonNull(GraphQLString) },
    thumbnailUrl: { type: nonNull(GraphQLString) },
    title: { type: nonNull(GraphQLString) },
    url: { type: nonNull(GraphQLString) },
    width: { type: nonNull(IntType) },
  },
});

/**
 * The meta fields of every record type (`RecordInterface` in DatoCMS's schemas), with
 * `_publishedAt` and `_firstPublishedAt` non-null where strict mode promises them.
 */
export const recordMetaFields = (publicationPromised = false) => ({
  _createdAt: { type: nonNull(DateTime) },
  _firstPublishedAt: { type: publicationPromised ? nonNull(DateTime) : DateTime },
  _isValid: { type: nonNull(BooleanType) },
  _modelApiKey: { type: nonNull(GraphQLString) },
  _publicationScheduledAt: { type: DateTime },
  _publishedAt: { type: publicationPromised ? nonNull(DateTime) : DateTime },
  _status: { type: nonNull(ItemStatus) },
  _unpublishingScheduledAt: { type: DateTime },
  _updatedAt: { type: nonNull(DateTime) },
  id: { type: nonNull(ItemId) },
});

/**
 * `RecordInterface`: the meta fields, `_editingUrl`, and `_seoMetaTags(locale)` whose
 * argument names the schema's locales.
 */
export function recordInterface(siteLocale: GraphQLEnumType, tag: GraphQLObjectType) {
  return new GraphQLInterfaceType({
    name: 'RecordInterface',
    fields: () => ({
      ...recordMetaFields(),
      _editingUrl: { type: GraphQLString },
      _seoMetaTags: {
        type: nonNull(new GraphQLList(nonNull(tag))),
        args: { locale: { type: siteLocale } },
      },
    }),
  });
}

// ── Filter inputs shared by every model ──

type Operators = Record<string, { type: GraphQLInputType; description?: string }>;

function filterInput(name: string, description: string, fields: Operators) {
  return new GraphQLInputObjectType({ name, description, fields });
}

const list = (type: GraphQLInputType) => new GraphQLList(type);

const exists = { exists: { type: BooleanType } };
const matching = {
  matches: { type: StringMatchesFilter },
  notMatches: { type: StringMatchesFilter },
  isBlank: { type: BooleanType },
  isPresent: { type: BooleanType },
};

function equality(type: GraphQLInputType): Operators {
  return { eq: { type }, neq: { type }, in: { type: list(type) }, notIn: { type: list(type) } };
}

function ordered(type: GraphQLInputType): Operators {
  return {
    gt: { type },
    lt: { type },
    gte: { type },
    lte: { type },
    ...exists,
    eq: { type },
    neq: { type },
  };
}

const times = (name: string, description: string) =>
  filterInput(name, description, {
    gt: { type: DateTime },
    lt: { type: DateTime },
    gte: { type: DateTime },
    lte: { type: DateTime },
    eq: { type: DateTime },
    neq: { type: DateTime },
    ...exists,
  });

export const FILTERS = {
  string: filterInput('StringFilter', 'Specifies how to filter Single-line string fields', {
    ...matching,
    ...equality(GraphQLString),
    ...exists,
  }),
  text: filterInput('TextFilter', 'Specifies how to filter text fields', {
    ...matching,
    ...exists,
  }),
  slug: filterInput('SlugFilter', 'Specifies how to filter Slug fields', equality(GraphQLString)),
  boolean: filterInput('BooleanFilter', 'Specifies how to filter Boolean fields', {
    eq: { type: BooleanType },
  }),
  integer: filterInput('IntegerFilter', 'Specifies how to filter Integer fields', ordered(IntType)),
  float: filterInput(
    'FloatFilter',
    'Specifies how to filter Floating-point fields',
    ordered(FloatType),
  ),
  date: filterInput('DateFilter', 'Specifies how to filter Date fields', ordered(DateScalar)),
  date_time: filterInput(
    'DateTimeFilter',
    'Specifies how to filter DateTime fields',
    ordered(DateTime),
  ),
  link: filterInput('LinkFilter', 'Specifies how to filter Single-link fields', {
    ...equality(ItemId),
    ...exists,
  }),
  links: filterInput('LinksFilter', 'Specifies how to filter Multiple-links fields', {
    eq: { type: list(ItemId) },
    allIn: { type: list(ItemId) },
    anyIn: { type: list(ItemId) },
    notIn: { type: list(ItemId) },
    ...exists,
  }),
  lat_lon: filterInput('LatLonFilter', 'Specifies how to filter Geolocation fields', {
    near: {
      type: new GraphQLInputObjectType({
        name: 'LatLonNearFilter',
        fields: {
          latitude: { type: nonNull(FloatType) },
          longitude: { type: nonNull(FloatType) },
          radius: { type: nonNull(FloatType) },
        },
      }),
    },
    ...exists,
  }),
  color: filterInput('ColorFilter', 'Specifies how to filter Color fields', exists),
  json: filterInput('JsonFilter', 'Specifies how to filter JSON fields', exists),
  file: filterInput('FileFilter', 'Specifies how to filter Single-file/image fields', {
    ...equality(UploadId),
    ...exists,
  }),
  gallery: filterInput('GalleryFilter', 'Specifies how to filter Multiple files/images field', {
    eq: { type: list(UploadId) },
    allIn: { type: list(UploadId) },
    anyIn: { type: list(UploadId) },
    notIn: { type: list(UploadId) },
    ...exists,
  }),
  seo: filterInput('SeoFilter', 'Specifies how to filter SEO meta tags fields', exists),
  video: filterInput('VideoFilter', 'Specifies how to filter Video fields', exists),
  structured_text: StructuredTextFilter,
} as const;

export const META_FILTERS = {
  _createdAt: times('CreatedAtFilter', 'Specifies how to filter by creation datetime'),
  id: filterInput('ItemIdFilter', 'Specifies how to filter by ID', equality(ItemId)),
  publishedAt: times('PublishedAtFilter', 'Specifies how to filter by publication datetime'),
  _status: filterInput('StatusFilter', 'Specifies how to filter by status', equality(ItemStatus)),
  _updatedAt: times('UpdatedAtFilter', 'Specifies how to filter by update datetime'),
  parent: filterInput(
    'ParentFilter',
    'Specifies how to filter by parent (tree-like collections only)',
    {
      eq: { type: ItemId },
      ...exists,
    },
  ),
  position: filterInput(
    'PositionFilter',
    'Specifies how to filter by position (sorted and tree-like collections)',
    Object.fromEntries(Object.entries(ordered(IntType)).filter(([name]) => name !== 'exists')),
  ),
} as const;
