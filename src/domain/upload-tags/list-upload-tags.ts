import type { Scope } from '../../db/environment-scope.ts';
import { namesOnUploads, type TagPage, type TagQuery, tagPage } from './tag-page.ts';

/**
 * The environment's upload tags: those its uploads carry and those made with
 * `POST /upload-tags`. A tag's id is its name.
 */
export async function listUploadTags(scope: Scope, query: TagQuery): Promise<TagPage> {
  const names = scope.db
    .selectFrom('upload_tags')
    .select('name')
    .union(namesOnUploads(scope.db, 'tags'));
  return tagPage(scope.db, names, query);
}
