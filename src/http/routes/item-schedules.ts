import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScheduledActionKind, ScheduleSelection } from '../../db/schema.ts';
import { recordGate } from '../../domain/items/access/record-gate.ts';
import {
  createSchedule,
  destroySchedule,
  SCHEDULE_KINDS,
} from '../../domain/items/publishing/schedules.ts';
import { presentItem } from '../../presenters/item.ts';
import { presentScheduledAction } from '../../presenters/scheduled-action.ts';
import { actorOf } from '../actor.ts';
import {
  ItemDocument,
  ScheduledPublicationDocument,
  ScheduledUnpublishingDocument,
} from '../responses/records.ts';
import { CreateScheduleBody } from '../schemas/item-schedule.ts';

const SCHEDULE_DOCUMENTS = {
  publish: ScheduledPublicationDocument,
  unpublish: ScheduledUnpublishingDocument,
};

type Params = { Params: { id: string } };
type CreateBody = { Body: { data: { attributes?: Record<string, unknown> } } };

/** Each schedule kind's path and document type. */
const ROUTES: Record<ScheduledActionKind, { path: string; type: string }> = {
  publish: { path: 'scheduled-publication', type: 'scheduled_publication' },
  unpublish: { path: 'scheduled-unpublishing', type: 'scheduled_unpublishing' },
};

/**
 * Scheduled publication and unpublishing of a record (client resources
 * scheduledPublication, scheduledUnpublishing): scheduling either needs the role's
 * "publish" permission on the record, as publishing it would, over all of its content:
 * what a schedule publishes is what the record holds when it is due, which no one can
 * judge value by value now.
 */
export async function itemScheduleRoutes(app: FastifyInstance): Promise<void> {
  /** Judged inside the schedule's transaction, on the record as it then is (its stage). */
  const gateOf = (request: FastifyRequest<Params>) =>
    recordGate(actorOf(request), { action: 'publish', wholeContent: true });

  for (const kind of ['publish', 'unpublish'] as const) {
    const { path, type } = ROUTES[kind];
    const { attribute, localesAttribute } = SCHEDULE_KINDS[kind];
    app.post<Params & CreateBody>(
      `/items/:id/${path}`,
      {
        schema: {
          body: CreateScheduleBody(kind, attribute, localesAttribute),
          response: { 201: SCHEDULE_DOCUMENTS[kind] },
        },
        config: { resourceType: type, itemAction: 'publish' },
      },
      async (request, reply) => {
        const attributes = request.body.data.attributes ?? {};
        const { schedule, item } = await createSchedule(
          request.scope,
          kind,
          request.params.id,
          {
            at: attributes[attribute] as string,
            selection: (attributes[localesAttribute] ?? null) as ScheduleSelection | null,
          },
          gateOf(request),
        );
        return reply
          .status(201)
          .send({ data: presentScheduledAction(schedule), included: [presentItem(item)] });
      },
    );

    app.delete<Params>(
      `/items/:id/${path}`,
      { schema: { response: { 200: ItemDocument } }, config: { itemAction: 'publish' } },
      async (request) => {
        const item = await destroySchedule(request.scope, kind, request.params.id, gateOf(request));
        return { data: presentItem(item) };
      },
    );
  }
}
