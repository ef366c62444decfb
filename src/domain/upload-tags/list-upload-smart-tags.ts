import type { Scope } from '../../db/environment-scope.ts';
import { namesOnUploads, type TagPage, type TagQuery, tagPage } from './tag-page.ts';

/** The smart tags (colour words Fieldhouse computed) the environment's uploads carry. */
export async function listUploadSmartTags(scope: Scope, query: TagQuery): Promise<TagPage> {
  return tagPage(scope.db, namesOnUploads(scope.db, 'smart_tags'), query);
}
