import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as webhooks from '../../domain/webhooks/service.ts';
import { removeSigningSecret, rotateSigningSecret } from '../../domain/webhooks/signing.ts';
import { presentSigningSecret, presentWebhook } from '../../presenters/webhook.ts';
import { SigningSecretDocument, WebhookDocument, WebhookList } from '../responses/webhooks.ts';
import { NoContent } from '../schemas/documents.ts';
import { CreateWebhookBody, UpdateWebhookBody } from '../schemas/webhook.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };

export async function webhookRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  // Reading needs the right too: a webhook shows its basic-auth password. A webhook
  // receives every environment's events: only a role reaching them all may manage one.
  const config = { permission: 'can_manage_webhooks', reachesEveryEnvironment: true } as const;
  const write = { ...config, resourceType: 'webhook' } as const;

  app.get('/webhooks', { schema: { response: { 200: WebhookList } }, config }, async () => ({
    data: (await webhooks.listWebhooks(db)).map(presentWebhook),
  }));

  app.get<Params>(
    '/webhooks/:id',
    { schema: { response: { 200: WebhookDocument } }, config },
    async (request) => ({
      data: presentWebhook(await webhooks.findWebhook(db, request.params.id)),
    }),
  );

  app.post<{ Body: Static<typeof CreateWebhookBody> }>(
    '/webhooks',
    { schema: { body: CreateWebhookBody, response: { 201: WebhookDocument } }, config: write },
    async (request, reply) => {
      const data = presentWebhook(await webhooks.createWebhook(db, request.body.data.attributes));
      return reply.status(201).send({ data });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateWebhookBody> }>(
    '/webhooks/:id',
    { schema: { body: UpdateWebhookBody, response: { 200: WebhookDocument } }, config: write },
    async (request) => ({
      data: presentWebhook(
        await webhooks.updateWebhook(db, request.params.id, request.body.data.attributes ?? {}),
      ),
    }),
  );

  app.delete<Params>(
    '/webhooks/:id',
    { schema: { response: { 200: WebhookDocument } }, config },
    async (request) => ({
      data: presentWebhook(await webhooks.destroyWebhook(db, request.params.id)),
    }),
  );

  // Fieldhouse extension: opt-in Standard Webhooks signing. The secret is shown once.
  app.post<Params>(
    '/webhooks/:id/signing_secret',
    { schema: { response: { 200: SigningSecretDocument } }, config },
    async (request) => ({
      data: presentSigningSecret(await rotateSigningSecret(db, request.params.id)),
    }),
  );

  app.delete<Params>(
    '/webhooks/:id/signing_secret',
    { schema: { response: { 204: NoContent } }, config },
    async (request, reply) => {
      await removeSigningSecret(db, request.params.id);
      return reply.status(204).send();
    },
  );
}
