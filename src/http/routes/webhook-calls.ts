import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as calls from '../../domain/webhook-calls/service.ts';
import { presentCallsPage, presentCallWithWebhook } from '../../presenters/webhook-call.ts';
import { sendListDocument } from '../list-document.ts';
import { readBudget } from '../read-budget.ts';
import { WebhookCallDocument, WebhookCallList } from '../responses/webhooks.ts';
import { NoContent } from '../schemas/documents.ts';
import { ListWebhookCallsQuery } from '../schemas/webhook-call.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };

export async function webhookCallRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  // The log holds the payloads of every environment's events.
  const config = { permission: 'can_manage_webhooks', reachesEveryEnvironment: true } as const;

  app.get<{ Querystring: Static<typeof ListWebhookCallsQuery> }>(
    '/webhook_calls',
    { schema: { querystring: ListWebhookCallsQuery, response: { 200: WebhookCallList } }, config },
    async (request, reply) => {
      const { data, ...rest } = presentCallsPage(
        await calls.listWebhookCalls(db, request.query, readBudget.admitFor(reply)),
      );
      return sendListDocument(reply, data, rest);
    },
  );

  app.get<Params>(
    '/webhook_calls/:id',
    { schema: { response: { 200: WebhookCallDocument } }, config },
    async (request) => presentCallWithWebhook(await calls.findWebhookCall(db, request.params.id)),
  );

  // The client expects no result (Promise<void>): 204 is the one status it reads no body from.
  app.post<Params>(
    '/webhook_calls/:id/resend_webhook',
    { schema: { response: { 204: NoContent } }, config },
    async (request, reply) => {
      await calls.resendWebhookCall(db, request.params.id);
      return reply.status(204).send();
    },
  );
}
