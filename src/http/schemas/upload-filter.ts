import { Type } from '@sinclair/typebox';
import { NoMembers, ResourceDocument } from '../jsonapi.ts';

// The client types `name` and `filter` as required on create and update; both are
// accepted omitted on update (omitted keeps the value) and reported by the service.
const attributes = Type.Object(
  {
    name: Type.Optional(Type.String()),
    filter: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    shared: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CreateUploadFilterBody = ResourceDocument({
  attributes,
  relationships: NoMembers,
  meta: NoMembers,
});

export const UpdateUploadFilterBody = ResourceDocument({
  attributes,
  relationships: NoMembers,
  meta: NoMembers,
});
