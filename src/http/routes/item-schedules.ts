import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertMayOnItems } from '../../domain/items/access.ts';
import {
  createSchedule,
  destroySchedule,
  type ScheduleInput,
} from '../../domain/items/schedules.ts';
import { withTreeMeta } from '../../domain/items/tree-meta.ts';
import { actorOf } from '../actor.ts';
import {
  CreateScheduledPublicationBody,
  CreateScheduledUnpublishingBody,
} from '../schemas/item-schedule.ts';

type Params = { Params: { id: string } };
type Attributes = Record<string, unknown>;

/** Each schedule kind's path, document type, body and how its attributes read. */
const KINDS = [
  {
    action: 'publish',
    path: 'scheduled-publication',
    type: 'scheduled_publication',
    body: CreateScheduledPublicationBody,
    input: (attributes: Attributes): ScheduleInput => ({
      at: attributes.publication_scheduled_at as string,
      locales: attributes.selective_publication,
    }),
  },
  {
    action: 'unpublish',
    path: 'scheduled-unpublishing',
    type: 'scheduled_unpublishing',
    body: CreateScheduledUnpublishingBody,
    input: (attributes: Attributes): ScheduleInput => ({
      at: attributes.unpublishing_scheduled_at as string,
      locales: attributes.content_in_locales,
    }),
  },
] as const;

/**
 * Scheduled publication and unpublishing of a record (client resources
 * scheduledPublication, scheduledUnpublishing): scheduling either needs the role's
 * "publish" permission on the record, as publishing it would.
 */
export async function itemScheduleRoutes(app: FastifyInstance): Promise<void> {
  const mayPublish = (request: FastifyRequest<Params>) =>
    assertMayOnItems(actorOf(request), request.scope, 'publish', [request.params.id]);

  for (const kind of KINDS) {
    app.post<Params & { Body: { data: { attributes?: Attributes } } }>(
      `/items/:id/${kind.path}`,
      { schema: { body: kind.body }, config: { resourceType: kind.type, itemAction: 'publish' } },
      async (request, reply) => {
        await mayPublish(request);
        const { schedule, item } = await createSchedule(
          request.scope,
          kind.action,
          request.params.id,
          kind.input(request.body.data.attributes ?? {}),
        );
        return reply
          .status(201)
          .send({ data: schedule, included: [await withTreeMeta(request.scope, item)] });
      },
    );

    app.delete<Params>(
      `/items/:id/${kind.path}`,
      { config: { itemAction: 'publish' } },
      async (request) => {
        await mayPublish(request);
        const item = await destroySchedule(request.scope, kind.action, request.params.id);
        return { data: await withTreeMeta(request.scope, item) };
      },
    );
  }
}
