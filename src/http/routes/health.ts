import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pendingMigrations } from '../../db/migrate.ts';
import { DomainError } from '../../domain/errors.ts';
import { HealthDocument } from '../responses/project.ts';
import type { AppDeps } from '../types.ts';

/**
 * Probes for orchestrators, served without a token. Liveness says only that the process
 * answers; readiness also proves the database answers and its schema is current, so a
 * load balancer sends no traffic to an instance that would fail every request.
 */
export async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const probe = {
    config: { public: true },
    schema: { response: { 200: HealthDocument } },
  } as const;

  app.get('/healthz', probe, async () => ({ data: { type: 'health', id: 'live' } }));

  app.get('/readyz', probe, async (request) => {
    let pending: string[];
    try {
      await sql`SELECT 1`.execute(deps.db);
      pending = await pendingMigrations(deps.db);
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      throw new DomainError('SERVICE_UNAVAILABLE', 'the database is unreachable');
    }
    if (pending.length > 0) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'migrations are not applied', { pending });
    }
    return { data: { type: 'health', id: 'ready' } };
  });
}
