import type { UploadCollection } from '../domain/upload-collections/upload-collection.ts';
import { type Resource, ref, refs } from './jsonapi.ts';

export function presentUploadCollection(collection: UploadCollection): Resource {
  return {
    type: 'upload_collection',
    id: collection.id,
    attributes: { label: collection.label, position: collection.position },
    relationships: {
      parent: { data: ref('upload_collection', collection.parentId) },
      children: { data: refs('upload_collection', [...collection.childIds]) },
    },
  };
}
