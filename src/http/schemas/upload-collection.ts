import { Type } from '@sinclair/typebox';
import { NoMembers, Position, ResourceDocument, ToMany, ToOne } from '../jsonapi.ts';
import { ReorderDocument } from './menu-tree.ts';

const label = Type.String({ minLength: 1, maxLength: 255 });

export const CreateUploadCollectionBody = ResourceDocument({
  attributes: Type.Object(
    { label, position: Type.Optional(Position()) },
    { additionalProperties: false },
  ),
  relationships: Type.Object(
    { parent: Type.Optional(ToOne('upload_collection')) },
    { additionalProperties: false },
  ),
  meta: NoMembers,
});

// The client's update takes the whole fetched collection spread (children included).
export const UpdateUploadCollectionBody = ResourceDocument({
  attributes: Type.Object(
    { label: Type.Optional(label), position: Type.Optional(Position()) },
    { additionalProperties: false },
  ),
  relationships: Type.Object(
    {
      parent: Type.Optional(ToOne('upload_collection')),
      children: Type.Optional(ToMany('upload_collection', 1000)),
    },
    { additionalProperties: false },
  ),
  meta: NoMembers,
});

export const ReorderUploadCollectionsBody = ReorderDocument('upload_collection');
