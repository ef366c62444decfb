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
