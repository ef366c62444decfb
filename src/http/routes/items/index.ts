import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../types.ts';
import { recordBulkRoutes } from './bulk.ts';
import { recordPublishingRoutes } from './publishing.ts';
import { recordReadRoutes } from './reads.ts';
import { recordVersionRoutes } from './versions.ts';
import { recordWriteRoutes } from './writes.ts';

/**
 * The CMA's record routes, one file per concern. Every route but the list declares the
 * record action it needs (`config.itemAction`, record-access.ts); for the write routes,
 * test/compat/route-permissions.test.ts fails on one that does not.
 */
export async function itemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await recordReadRoutes(app);
  await recordWriteRoutes(app, deps);
  await recordPublishingRoutes(app);
  await recordBulkRoutes(app, deps);
  await recordVersionRoutes(app, deps);
}
