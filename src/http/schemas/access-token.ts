import { type TSchema, Type } from '@sinclair/typebox';
import { Enum } from '../jsonapi.ts';

// Create and update both require every attribute, as the official client's types do.
const attributes = Type.Object(
  {
    name: Type.String(),
    can_access_cda: Type.Boolean(),
    can_access_cda_preview: Type.Boolean(),
    can_access_cma: Type.Boolean(),
  },
  { additionalProperties: false },
);

const RoleRef = Type.Object(
  {
    data: Type.Object(
      { type: Type.Literal('role'), id: Type.String() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const relationships = Type.Object({ role: RoleRef }, { additionalProperties: false });

/** Unlike most resources, a token document always carries its attributes. */
function TokenDocument<R extends TSchema>(relationshipsSchema: R) {
  return Type.Object(
    {
      data: Type.Object(
        {
          type: Type.String(),
          id: Type.Optional(Type.String()),
          attributes,
          relationships: relationshipsSchema,
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  );
}

export const CreateAccessTokenBody = TokenDocument(relationships);

export const UpdateAccessTokenBody = TokenDocument(Type.Optional(relationships));

/**
 * Who inherits what the deleted token owned: `destination_access_token_id`, or the
 * official client's `destination_user_type` / `destination_user_id` pair. Fieldhouse
 * has no users, so only the project owner (account, organization) or a token can be named.
 */
export const DestroyAccessTokenQuery = Type.Object(
  {
    destination_access_token_id: Type.Optional(Type.String()),
    destination_user_type: Type.Optional(Enum(['account', 'organization', 'access_token'])),
    destination_user_id: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
