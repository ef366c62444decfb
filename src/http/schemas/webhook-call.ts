import { Type } from '@sinclair/typebox';

/**
 * The list parameters' outer shape; an unknown parameter is INVALID_PARAMS. Values are
 * checked by the domain, which tells a bad `filter[fields]` key apart.
 */
export const ListWebhookCallsQuery = Type.Object(
  {
    page: Type.Optional(
      Type.Object(
        { offset: Type.Optional(Type.String()), limit: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    filter: Type.Optional(
      Type.Object(
        { ids: Type.Optional(Type.String()), fields: Type.Optional(Type.Unknown()) },
        { additionalProperties: false },
      ),
    ),
    order_by: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
