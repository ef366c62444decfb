import { Type } from '@sinclair/typebox';
import { MAX_RECORDS_PER_BULK } from '../../domain/limits.ts';
import { ResourceDocument, ToMany, ToOne } from '../jsonapi.ts';

/** Values keyed by api_key: their shapes are the field-type registry's to check. */
const ItemAttributes = Type.Object({}, { additionalProperties: true });

const ItemMetaInput = Type.Object(
  { current_version: Type.Optional(Type.String()) },
  { additionalProperties: true },
);

export const CreateItemBody = ResourceDocument({
  attributes: ItemAttributes,
  relationships: Type.Object(
    { item_type: ToOne('item_type'), creator: Type.Optional(Type.Unsafe({})) },
    { additionalProperties: false },
  ),
  meta: ItemMetaInput,
});

export const UpdateItemBody = ResourceDocument({
  attributes: ItemAttributes,
  relationships: Type.Object(
    { item_type: Type.Optional(ToOne('item_type')), creator: Type.Optional(Type.Unsafe({})) },
    { additionalProperties: false },
  ),
  meta: ItemMetaInput,
});

/** `{data: {type: item_bulk_<action>_operation, relationships: {items: {data: [...]}}}}` */
export const BulkItemsBody = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.String(),
        relationships: Type.Object(
          { items: ToMany('item', MAX_RECORDS_PER_BULK) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** What selective publishing publishes (a publish body's attributes; a schedule's `selective_publication`). */
export const SelectivePublication = Type.Object(
  {
    content_in_locales: Type.Array(Type.String(), { maxItems: 500 }),
    non_localized_content: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** The locales selective unpublishing withdraws. */
export const LocalesToWithdraw = Type.Array(Type.String(), { minItems: 1, maxItems: 500 });

/** Selective publishing: `{data: {type, attributes: {content_in_locales, non_localized_content}}}`, or no body. */
export const PublishItemBody = Type.Union([
  Type.Null(),
  Type.Object(
    {
      data: Type.Object(
        {
          type: Type.String(),
          attributes: SelectivePublication,
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
]);

/** Selective unpublishing: `{data: {type, attributes: {content_in_locales}}}`, or no body. */
export const UnpublishItemBody = Type.Union([
  Type.Null(),
  Type.Object(
    {
      data: Type.Object(
        {
          type: Type.String(),
          attributes: Type.Object(
            { content_in_locales: LocalesToWithdraw },
            { additionalProperties: false },
          ),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
]);

/** `{data: {type, attributes: {stage}, relationships: {items: {data: [...]}}}}` */
export const BulkMoveToStageBody = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.String(),
        attributes: Type.Object(
          { stage: Type.String({ minLength: 1 }) },
          { additionalProperties: false },
        ),
        relationships: Type.Object(
          { items: ToMany('item', MAX_RECORDS_PER_BULK) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

// ── Query strings the record routes parse themselves (documented, not validated: their
// checks and INVALID_PARAMS errors are the route's, src/http/routes/items/params.ts) ──

const TrueOrFalse = (description: string) =>
  Type.Optional(Type.String({ enum: ['true', 'false'], description }));
const Digits = (description: string) =>
  Type.Optional(Type.String({ pattern: '^\\d+$', description }));

const Version = Type.Optional(
  Type.String({
    enum: ['current', 'published'],
    description: 'Which values to read: the current version (default) or the published one',
  }),
);
const Nested = TrueOrFalse('true: blocks are given whole, not by id');
const Page = Type.Optional(
  Type.Object({
    offset: Digits('Records to skip (default 0)'),
    limit: Digits('Records per page (default 30, at most 500)'),
  }),
);

export const ListItemsQuery = Type.Object({
  filter: Type.Optional(
    Type.Object({
      type: Type.Optional(Type.String({ description: 'Model ids or api_keys, comma-separated' })),
      ids: Type.Optional(Type.String({ description: 'Record ids, comma-separated' })),
      fields: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description:
            'Per field api_key, an operator and its operand: `filter[fields][title][eq]=x`; `OR` and `AND` hold lists of such filters',
        }),
      ),
      query: Type.Optional(Type.String({ description: 'Full-text search of the values' })),
      only_valid: TrueOrFalse('true: only records whose current version is valid'),
    }),
  ),
  page: Page,
  order_by: Type.Optional(
    Type.String({ description: 'Comma-separated `<field api_key or meta>_(ASC|DESC)`' }),
  ),
  locale: Type.Optional(Type.String({ description: 'The locale text filters and ordering use' })),
  version: Version,
  nested: Nested,
});

export const ItemQuery = Type.Object({ version: Version, nested: Nested });

export const ItemVersionsQuery = Type.Object({ page: Page });

export const RecursiveQuery = Type.Object({
  recursive: TrueOrFalse(
    'Trees: true also publishes unpublished parents, or also unpublishes published children',
  ),
});
