import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
} from 'graphql';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { badFilter } from '../../domain/items/query/filter-operators.ts';
import { uploadFieldConditions, uploadOrdering } from '../../domain/uploads/list-filters.ts';
import { StringMatchesFilter } from '../schema/filters/string-matches-filter.ts';
import { BooleanType, DateTime, IntType, UploadId } from '../schema/scalars.ts';

/**
 * `UploadFilter` and `UploadOrderBy` as DatoCMS's generated schemas name them, and their
 * translation to SQL: the fields the CMA's `GET /uploads` filters know go through its
 * engine (list-filters.ts); alt, title, type and orientation are read here. Patterns
 * (`matches`) are literal substrings, as in the CMA's upload filters.
 */

type Operators = Record<string, { type: GraphQLInputType }>;
const list = (type: GraphQLInputType) => new GraphQLList(type);
const input = (name: string, fields: Operators) => new GraphQLInputObjectType({ name, fields });

const matching: Operators = {
  matches: { type: StringMatchesFilter },
  notMatches: { type: StringMatchesFilter },
};
const equality = (type: GraphQLInputType): Operators => ({
  eq: { type },
  neq: { type },
  in: { type: list(type) },
  notIn: { type: list(type) },
});
const exists: Operators = { exists: { type: BooleanType } };
const ordered = (type: GraphQLInputType): Operators => ({
  eq: { type },
  neq: { type },
  gt: { type },
  gte: { type },
  lt: { type },
  lte: { type },
});

const UploadType = new GraphQLEnumType({
  name: 'UploadType',
  values: Object.fromEntries(
    [
      'archive',
      'audio',
      'image',
      'pdfdocument',
      'presentation',
      'richtext',
      'spreadsheet',
      'video',
    ].map((value) => [value, { value }]),
  ),
});

const UploadOrientation = new GraphQLEnumType({
  name: 'UploadOrientation',
  values: {
    landscape: { value: 'landscape' },
    portrait: { value: 'portrait' },
    square: { value: 'square' },
  },
});

const tags = input('UploadTagsFilter', {
  allIn: { type: list(new GraphQLNonNull(GraphQLString)) },
  anyIn: { type: list(new GraphQLNonNull(GraphQLString)) },
  contains: { type: GraphQLString },
  eq: { type: list(new GraphQLNonNull(GraphQLString)) },
  notIn: { type: list(new GraphQLNonNull(GraphQLString)) },
});

/** DatoCMS's colour buckets; ours are the smart tags' colour words (`gray` for `grey`). */
const ColorBucketType = new GraphQLEnumType({
  name: 'ColorBucketType',
  values: Object.fromEntries(
    [
      'black',
      'blue',
      'brown',
      'cyan',
      'green',
      'grey',
      'orange',
      'pink',
      'purple',
      'red',
      'white',
      'yellow',
    ].map((value) => [value, { value: value === 'grey' ? 'gray' : value }]),
  ),
});

// DatoCMS's schemas let the lists hold nulls, which filter nothing (withoutNulls).
const buckets = list(ColorBucketType);

const FIELD_INPUTS: Record<string, GraphQLInputObjectType> = {
  _createdAt: input('UploadCreatedAtFilter', ordered(DateTime)),
  _updatedAt: input('UploadUpdatedAtFilter', ordered(DateTime)),
  alt: input('UploadAltFilter', { ...equality(GraphQLString), ...matching, ...exists }),
  author: input('UploadAuthorFilter', { ...matching, ...exists }),
  basename: input('UploadBasenameFilter', matching),
  colors: input('UploadColorsFilter', {
    allIn: { type: buckets },
    anyIn: { type: buckets },
    contains: { type: ColorBucketType },
    eq: { type: buckets },
    notIn: { type: buckets },
  }),
  copyright: input('UploadCopyrightFilter', { ...matching, ...exists }),
  filename: input('UploadFilenameFilter', matching),
  format: input('UploadFormatFilter', equality(GraphQLString)),
  height: input('UploadHeightFilter', ordered(IntType)),
  id: input('UploadIdFilter', equality(UploadId)),
  inUse: input('InUseFilter', { eq: { type: BooleanType } }),
  md5: input('UploadMd5Filter', equality(GraphQLString)),
  mimeType: input('UploadMimeTypeFilter', { ...equality(GraphQLString), ...matching }),
  notes: input('UploadNotesFilter', { ...matching, ...exists }),
  orientation: input('OrientationFilter', {
    eq: { type: UploadOrientation },
    neq: { type: UploadOrientation },
  }),
  resolution: input('ResolutionFilter', ordered(IntType)),
  size: input('UploadSizeFilter', ordered(IntType)),
  smartTags: tags,
  tags,
  title: input('UploadTitleFilter', { ...equality(GraphQLString), ...matching, ...exists }),
  type: input('TypeFilter', equality(UploadType)),
  width: input('UploadWidthFilter', ordered(IntType)),
};

export const UploadFilter: GraphQLInputObjectType = new GraphQLInputObjectType({
  name: 'UploadFilter',
  fields: () => ({
    ...Object.fromEntries(Object.entries(FIELD_INPUTS).map(([name, type]) => [name, { type }])),
    OR: { type: list(UploadFilter) },
    AND: { type: list(UploadFilter) },
  }),
});

const ORDERABLE: Record<string, string> = {
  _createdAt: '_created_at',
  _updatedAt: '_updated_at',
  basename: 'basename',
  filename: 'filename',
  format: 'format',
  id: 'id',
  mimeType: 'mime_type',
  resolution: 'resolution',
  size: 'size',
};

export const UploadOrderBy = new GraphQLEnumType({
  name: 'UploadOrderBy',
  values: Object.fromEntries(
    Object.keys(ORDERABLE).flatMap((name) =>
      ['ASC', 'DESC'].map((direction) => [
        `${name}_${direction}`,
        { value: `${name}_${direction}` },
      ]),
    ),
  ),
});

/** The CMA engine's ordering of `[UploadOrderBy]` values (`mimeType_ASC` → `mime_type_ASC`). */
export function uploadOrder(orderBy: readonly string[]): RawBuilder<unknown> {
  return uploadOrdering(
    orderBy
      .map((rule) =>
        rule.replace(
          /^(.+)_(ASC|DESC)$/,
          (_m, name: string, dir: string) => `${ORDERABLE[name]}_${dir}`,
        ),
      )
      .join(','),
  );
}

/** The CMA engine's name of a field its filters know. */
const ENGINE_FIELDS: Record<string, string> = {
  _createdAt: '_created_at',
  _updatedAt: '_updated_at',
  author: 'author',
  basename: 'basename',
  copyright: 'copyright',
  filename: 'filename',
  format: 'format',
  height: 'height',
  id: 'id',
  md5: 'md5',
  mimeType: 'mime_type',
  notes: 'notes',
  resolution: 'resolution',
  size: 'size',
  smartTags: 'smart_tags',
  tags: 'tags',
  // The buckets of an upload's dominant colours are its smart tags (smart-tags.ts).
  colors: 'smart_tags',
  width: 'width',
};

/** Filters on a list of words, whose `eq` is the same set. */
const TAG_LISTS = new Set(['tags', 'smartTags', 'colors']);

/** MIME types of each upload type (DatoCMS's buckets). */
const TYPE_PATTERNS: Record<string, string> = {
  image: '^image/',
  video: '^video/',
  audio: '^audio/',
  pdfdocument: '^application/pdf$',
  archive: '(zip|x-tar|gzip|x-7z|x-rar|x-bzip)',
  presentation: '(powerpoint|presentation)',
  spreadsheet: '(excel|spreadsheet|text/csv)',
  richtext: '(msword|wordprocessing|opendocument\\.text|rtf|text/plain)',
};

type Operands = Record<string, unknown>;

/** Operands with the null elements of their lists left out. */
const withoutNulls = (operators: Operands): Operands =>
  Object.fromEntries(
    Object.entries(operators).map(([operator, arg]) => [
      operator,
      Array.isArray(arg) ? arg.filter((element) => element !== null) : arg,
    ]),
  );

/** A pattern operand in the CMA engine's spelling. */
const engineOperands = (operators: Operands): Operands =>
  Object.fromEntries(
    Object.entries(operators).map(([operator, arg]) => {
      if ((operator === 'matches' || operator === 'notMatches') && arg && typeof arg === 'object') {
        const { pattern, caseSensitive } = arg as { pattern: string; caseSensitive?: boolean };
        return [operator, { pattern, case_sensitive: caseSensitive ?? false }];
      }
      return [operator, arg];
    }),
  );

function metadataCondition(
  column: RawBuilder<unknown>,
  operators: Operands,
): RawBuilder<SqlBool>[] {
  return Object.entries(operators).map(([operator, arg]) => {
    switch (operator) {
      case 'eq':
        return sql<SqlBool>`${column} = ${arg}`;
      case 'neq':
        return sql<SqlBool>`${column} IS DISTINCT FROM ${arg}`;
      case 'in':
      case 'notIn': {
        const values = (arg as string[]) ?? [];
        const any =
          values.length === 0
            ? sql<SqlBool>`false`
            : sql<SqlBool>`${column} = ANY(${values}::text[])`;
        return operator === 'in' ? any : sql<SqlBool>`NOT coalesce(${any}, false)`;
      }
      case 'exists':
        return arg ? sql<SqlBool>`${column} IS NOT NULL` : sql<SqlBool>`${column} IS NULL`;
      default: {
        const { pattern, caseSensitive } = arg as { pattern: string; caseSensitive?: boolean };
        const like = `%${pattern.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const matched = caseSensitive
          ? sql<SqlBool>`${column} LIKE ${like}`
          : sql<SqlBool>`${column} ILIKE ${like}`;
        return operator === 'matches' ? matched : sql<SqlBool>`NOT coalesce(${matched}, false)`;
      }
    }
  });
}

function typeCondition(operators: Operands): RawBuilder<SqlBool>[] {
  const isType = (type: unknown) =>
    sql<SqlBool>`mime_type ~* ${TYPE_PATTERNS[String(type)] ?? '$^'}`;
  const anyOf = (types: unknown) => {
    const values = Array.isArray(types) ? types : [];
    return values.length === 0
      ? sql<SqlBool>`false`
      : sql<SqlBool>`(${sql.join(values.map(isType), sql` OR `)})`;
  };
  return Object.entries(operators).map(([operator, arg]) => {
    if (operator === 'eq') return isType(arg);
    if (operator === 'neq') return sql<SqlBool>`NOT ${isType(arg)}`;
    if (operator === 'in') return anyOf(arg);
    return sql<SqlBool>`NOT ${anyOf(arg)}`;
  });
}

function orientationCondition(operators: Operands): RawBuilder<SqlBool>[] {
  const is = (orientation: unknown) => {
    if (orientation === 'landscape') return sql<SqlBool>`coalesce(width > height, false)`;
    if (orientation === 'portrait') return sql<SqlBool>`coalesce(width < height, false)`;
    return sql<SqlBool>`coalesce(width = height, false)`;
  };
  return Object.entries(operators).map(([operator, arg]) =>
    operator === 'eq' ? is(arg) : sql<SqlBool>`NOT ${is(arg)}`,
  );
}

/**
 * The condition an `UploadFilter` value sets, its keys and `AND` / `OR` combined; `inUse`
 * is the condition of an upload some record uses (upload-in-use.ts).
 */
export function uploadFilterCondition(
  filter: Readonly<Record<string, unknown>> | null | undefined,
  locale: string,
  inUse: RawBuilder<SqlBool>,
): RawBuilder<SqlBool> {
  if (!filter) return sql<SqlBool>`true`;
  const conditions: RawBuilder<SqlBool>[] = [];
  for (const [name, value] of Object.entries(filter)) {
    if (value === null || value === undefined) continue;
    if (name === 'AND' || name === 'OR') {
      const parts = (value as Record<string, unknown>[])
        .filter(Boolean)
        .map((part) => uploadFilterCondition(part, locale, inUse));
      if (parts.length > 0)
        conditions.push(sql<SqlBool>`(${sql.join(parts, sql.raw(` ${name} `))})`);
      continue;
    }
    const operators = withoutNulls(value as Operands);
    const engineName = ENGINE_FIELDS[name];
    if (engineName && Array.isArray(operators.eq) && TAG_LISTS.has(name)) {
      const { eq, ...rest } = operators;
      const same = JSON.stringify(eq);
      conditions.push(
        sql<SqlBool>`(${sql.ref(engineName)} @> ${same}::jsonb AND ${same}::jsonb @> ${sql.ref(engineName)})`,
      );
      conditions.push(...uploadFieldConditions({ [engineName]: rest }));
    } else if (engineName)
      conditions.push(...uploadFieldConditions({ [engineName]: engineOperands(operators) }));
    else if (name === 'alt' || name === 'title')
      conditions.push(
        ...metadataCondition(
          sql`default_field_metadata->${sql.lit(name)}->>${locale}::text`,
          operators,
        ),
      );
    else if (name === 'type') conditions.push(...typeCondition(operators));
    else if (name === 'inUse') {
      if (typeof operators.eq === 'boolean')
        conditions.push(operators.eq ? inUse : sql<SqlBool>`NOT ${inUse}`);
    } else if (name === 'orientation') conditions.push(...orientationCondition(operators));
    else throw badFilter(`UploadFilter: uploads have no filter "${name}"`);
  }
  return conditions.length === 0
    ? sql<SqlBool>`true`
    : sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
}
