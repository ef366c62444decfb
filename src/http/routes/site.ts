import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { findSite } from '../../domain/site/find-site.ts';
import { updateSite } from '../../domain/site/update-site.ts';
import { presentSite, presentSiteWithSchema } from '../../presenters/site.ts';
import { actorOf } from '../actor.ts';
import { sendResult } from '../respond.ts';
import { SiteDocument } from '../responses/project.ts';
import { OrJob } from '../schemas/documents.ts';
import { SiteQuery, UpdateSiteBody } from '../schemas/site.ts';
import type { AppDeps } from '../types.ts';

export async function siteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get<{ Querystring: Static<typeof SiteQuery> }>(
    '/site',
    { schema: { querystring: SiteQuery, response: { 200: SiteDocument } } },
    async (request) => {
      const include = request.query.include?.split(',').filter((path) => path !== '') ?? [];
      return presentSiteWithSchema(await findSite(request.scope, include));
    },
  );

  // Each setting needs its own role flag, so the service checks permissions, not the route.
  app.put<{ Body: Static<typeof UpdateSiteBody> }>(
    '/site',
    {
      schema: { body: UpdateSiteBody, response: OrJob(200, SiteDocument) },
      config: { resourceType: 'site', asyncJob: true },
    },
    async (request, reply) => {
      const data = presentSite(
        await updateSite(
          request.scope,
          actorOf(request).permissions,
          request.body.data.attributes ?? {},
        ),
      );
      return sendResult(deps, request, reply, 200, { data });
    },
  );
}
