import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertMayCreate } from '../../../domain/items/access/access.ts';
import { newRecordGate } from '../../../domain/items/access/record-gate.ts';
import { createItem } from '../../../domain/items/writes/create-item.ts';
import { destroyItem } from '../../../domain/items/writes/destroy-item.ts';
import { duplicateItem } from '../../../domain/items/writes/duplicate.ts';
import { updateItem } from '../../../domain/items/writes/update-item.ts';
import { presentItem } from '../../../presenters/item.ts';
import { presentItemType } from '../../../presenters/item-type.ts';
import { actorOf } from '../../actor.ts';
import { sendResult } from '../../respond.ts';
import { DuplicatedItemDocument, ItemDocument } from '../../responses/records.ts';
import { NoContent, OrJob } from '../../schemas/documents.ts';
import { CreateItemBody, UpdateItemBody } from '../../schemas/item.ts';
import type { AppDeps } from '../../types.ts';
import {
  CREATE,
  CREATE_CHANGE,
  callerTokenOf,
  editorOf,
  gateOf,
  type Params,
  UPDATE,
  UPDATE_CHANGE,
} from './record-access.ts';

type CreateRequest = { Body: Static<typeof CreateItemBody> };
type UpdateRequest = Params & { Body: Static<typeof UpdateItemBody> };

/**
 * A create of the body's record, the role's right to create records of its model judged
 * first and the values it gives inside the transaction. Validating names no id (nothing
 * is kept) and takes no meta.
 */
async function createOf(request: FastifyRequest<CreateRequest>, validateOnly: boolean) {
  const { data } = request.body;
  const actor = actorOf(request);
  const itemType = data.relationships?.item_type.data?.id;
  const attributes = data.attributes ?? {};
  await assertMayCreate(actor, request.scope, itemType);
  return createItem(
    request.scope,
    callerTokenOf(request),
    validateOnly
      ? { itemType, attributes, meta: {} }
      : { id: data.id, itemType, attributes, meta: data.meta ?? {} },
    { validateOnly, gate: newRecordGate(actor) },
  );
}

/** Record create, update, destroy and duplicate, and the validations of a create or update. */
export async function recordWriteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<CreateRequest>(
    '/items',
    { schema: { body: CreateItemBody, response: { 201: ItemDocument } }, config: CREATE_CHANGE },
    async (request, reply) => {
      const entity = await createOf(request, false);
      reply.status(201);
      return { data: presentItem(entity) };
    },
  );

  // Validation without saving: every check of the write, then a rollback (204 when valid).
  app.post<CreateRequest>(
    '/items/validate',
    { schema: { body: CreateItemBody, response: { 204: NoContent } }, config: CREATE },
    async (request, reply) => {
      await createOf(request, true);
      return reply.status(204).send();
    },
  );

  app.post<UpdateRequest>(
    '/items/:id/validate',
    { schema: { body: UpdateItemBody, response: { 204: NoContent } }, config: UPDATE },
    async (request, reply) => {
      const data = request.body.data;
      await updateItem(
        request.scope,
        editorOf(request),
        request.params.id,
        {
          itemType: data.relationships?.item_type?.data?.id,
          attributes: data.attributes ?? {},
          meta: {},
        },
        { validateOnly: true, gate: gateOf(request) },
      );
      return reply.status(204).send();
    },
  );

  app.put<UpdateRequest>(
    '/items/:id',
    { schema: { body: UpdateItemBody, response: { 200: ItemDocument } }, config: UPDATE_CHANGE },
    async (request) => {
      const data = request.body.data;
      const itemType = data.relationships?.item_type?.data?.id;
      const entity = await updateItem(
        request.scope,
        editorOf(request),
        request.params.id,
        { itemType, attributes: data.attributes ?? {}, meta: data.meta ?? {} },
        { gate: gateOf(request) },
      );
      return { data: presentItem(entity) };
    },
  );

  app.delete<Params>(
    '/items/:id',
    {
      schema: { response: OrJob(200, ItemDocument) },
      config: { asyncJob: true, itemAction: 'delete', checksTokenInChange: true },
    },
    async (request, reply) => {
      const entity = await destroyItem(request.scope, request.params.id, gateOf(request));
      return sendResult(deps, request, reply, 200, { data: presentItem(entity) });
    },
  );

  // DatoCMS runs duplication as a job; its result names the model in `included`.
  app.post<Params>(
    '/items/:id/duplicate',
    {
      schema: { response: OrJob(201, DuplicatedItemDocument) },
      config: { asyncJob: true, itemAction: 'duplicate' },
    },
    async (request, reply) => {
      const { record, model } = await duplicateItem(
        request.scope,
        callerTokenOf(request),
        request.params.id,
        gateOf(request),
      );
      const document = { data: presentItem(record), included: [presentItemType(model)] };
      return sendResult(deps, request, reply, 201, document);
    },
  );
}
