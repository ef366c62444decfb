import { cacheKeys, cacheTag } from '../cda/cache-tags/cache-tags.ts';
import type { EnvironmentRef } from '../db/environment-scope.ts';
import type { Resource } from '../presenters/jsonapi.ts';

/** The event a CDN purges by: `cda_cache_tags` / `invalidate` with the tags a change affects. */
export type CacheTagsEntity = Resource & { attributes: { tags: string[] } };

type ChangeEvent = Readonly<{
  entityType: string;
  entity: Pick<Resource, 'id' | 'relationships'>;
  relatedEntities?: readonly Resource[];
}>;

/**
 * The delivery cache keys a change invalidates: a record's in both modes with its model's
 * collections (a save can publish, a publish changes both); an upload's and the upload
 * collections; a model's change (the schema) the site key every response carries.
 * Other events invalidate nothing.
 */
export function invalidatedKeys(event: ChangeEvent, environment: EnvironmentRef): string[] {
  const env = environment.id;
  switch (event.entityType) {
    case 'item': {
      const modelId =
        event.relatedEntities?.[0]?.id ??
        (event.entity.relationships?.item_type?.data as { id?: string } | null)?.id;
      return (['p', 'd'] as const).flatMap((mode) => [
        cacheKeys.record(env, mode, event.entity.id),
        ...(modelId ? [cacheKeys.collection(env, mode, modelId)] : []),
      ]);
    }
    case 'upload':
      return [cacheKeys.upload(env, event.entity.id), cacheKeys.uploads(env)];
    case 'item_type':
      return [cacheKeys.site(env)];
    default:
      return [];
  }
}

/** The `cda_cache_tags` entity of a change, or null when it invalidates nothing. */
export function cacheTagsEntity(event: ChangeEvent, environment: EnvironmentRef) {
  const keys = invalidatedKeys(event, environment);
  if (keys.length === 0) return null;
  return {
    id: 'cda_cache_tags',
    type: 'cda_cache_tags',
    attributes: { tags: [...new Set(keys.map(cacheTag))].sort() },
  } satisfies CacheTagsEntity;
}
