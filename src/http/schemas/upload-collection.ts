import { Type } from '@sinclair/typebox';
import { NoMembers, Nullable, Position, ResourceDocument, ToMany, ToOne } from '../jsonapi.ts';
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

const CollectionRef = Type.Object({
  type: Type.Literal('upload_collection'),
  id: Type.String(),
});

const UploadCollectionResource = Type.Object({
  type: Type.Literal('upload_collection'),
  id: Type.String(),
  attributes: Type.Object({ label: Type.String(), position: Type.Integer() }),
  relationships: Type.Object({
    parent: Type.Object({ data: Nullable(CollectionRef) }),
    children: Type.Object({ data: Type.Array(CollectionRef) }),
  }),
});

export const UploadCollectionDocument = Type.Object({ data: UploadCollectionResource });

export const UploadCollectionListDocument = Type.Object({
  data: Type.Array(UploadCollectionResource),
});

const Job = Type.Object({ data: Type.Object({ type: Type.Literal('job'), id: Type.String() }) });

/** A reorder: the collections moved, or a job whose result holds them (async jobs on). */
export const ReorderUploadCollectionsResponses = { 200: UploadCollectionListDocument, 202: Job };
