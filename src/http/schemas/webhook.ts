import { type TObject, Type } from '@sinclair/typebox';
import { NoMembers, NullableString, ResourceDocument } from '../jsonapi.ts';

// `headers` and `events` are only shape-checked here: their contents are validated by
// the domain, so a bad header name or event is an INVALID_FIELD on that attribute.
const Headers = Type.Unsafe<Record<string, unknown>>({ type: 'object' });
const Events = Type.Array(Type.Unknown());

const required = {
  name: Type.String(),
  url: Type.String(),
  custom_payload: NullableString(),
  headers: Headers,
  events: Events,
  http_basic_user: NullableString(),
  http_basic_password: NullableString(),
};

const optional = {
  enabled: Type.Optional(Type.Boolean()),
  payload_api_version: Type.Optional(Type.String()),
  nested_items_in_payload: Type.Optional(Type.Boolean()),
  auto_retry: Type.Optional(Type.Boolean()),
};

/** Webhook ids are assigned by the server: a create document carries no `data.id`. */
function CreateDocument<A extends TObject>(attributes: A) {
  return Type.Object(
    {
      data: Type.Object(
        {
          type: Type.String(),
          attributes,
          relationships: Type.Optional(NoMembers),
          meta: Type.Optional(NoMembers),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  );
}

/** The keys the spec marks R must be present (the official client always sends them). */
export const CreateWebhookBody = CreateDocument(
  Type.Object({ ...required, ...optional }, { additionalProperties: false }),
);

export const UpdateWebhookBody = ResourceDocument({
  attributes: Type.Partial(Type.Object({ ...required, ...optional }), {
    additionalProperties: false,
  }),
  relationships: NoMembers,
  meta: NoMembers,
});
