import type { Scope } from '../../db/environment-scope.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { DomainError } from '../errors.ts';
import { publishItem, unpublishItem } from './publishing.ts';
import { destroyItem } from './service.ts';

export type BulkAction = 'publish' | 'unpublish' | 'destroy';

const ACTIONS: Record<BulkAction, (scope: Scope, id: string) => Promise<Resource>> = {
  publish: publishItem,
  unpublish: unpublishItem,
  destroy: destroyItem,
};

/**
 * A bulk operation: each record is changed in its own transaction (with its own event),
 * so one refused record does not undo the others; the job result counts both.
 */
export async function bulkItems(
  scope: Scope,
  action: BulkAction,
  ids: readonly string[],
): Promise<{ data: Resource[]; meta: { successful: number; failed: number } }> {
  const data: Resource[] = [];
  let failed = 0;
  for (const id of ids) {
    try {
      data.push(await ACTIONS[action](scope, id));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failed++;
    }
  }
  return { data, meta: { successful: data.length, failed } };
}
