import { Type } from '@sinclair/typebox';
import { NoMembers, NullableString, ResourceDocument } from '../jsonapi.ts';

const Stage = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.Optional(NullableString()),
    initial: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CreateWorkflowBody = ResourceDocument({
  attributes: Type.Object(
    { name: Type.String(), api_key: Type.String(), stages: Type.Array(Stage) },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});

export const UpdateWorkflowBody = ResourceDocument({
  attributes: Type.Object(
    {
      name: Type.Optional(Type.String()),
      api_key: Type.Optional(Type.String()),
      stages: Type.Optional(Type.Array(Stage)),
    },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});
