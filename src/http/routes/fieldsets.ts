import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createFieldset } from '../../domain/fieldsets/create-fieldset.ts';
import { destroyFieldset } from '../../domain/fieldsets/destroy-fieldset.ts';
import { findFieldset, listFieldsets } from '../../domain/fieldsets/read-fieldsets.ts';
import { reorderFieldsAndFieldsets } from '../../domain/fieldsets/reorder.ts';
import { updateFieldset } from '../../domain/fieldsets/update-fieldset.ts';
import { presentFieldset, presentSchemaMember } from '../../presenters/fieldset.ts';
import { sendResult } from '../respond.ts';
import { FieldsetDocument, FieldsetList, ReorderedFormList } from '../responses/schema.ts';
import { OrJob } from '../schemas/documents.ts';
import {
  CreateFieldsetBody,
  fieldsetInput,
  ReorderFieldsAndFieldsetsBody,
  reorderEntries,
  UpdateFieldsetBody,
} from '../schemas/fieldset.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };

export async function fieldsetRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // Each fieldset write is one change, which checks the token's access version itself: the
  // request need not read its token first (plugins/assumed-token.ts). `fieldsetWrite` for
  // a request whose body is a `fieldset` document.
  const fieldsetChange = { permission: 'can_edit_schema', checksTokenInChange: true } as const;
  const fieldsetWrite = { ...fieldsetChange, resourceType: 'fieldset' } as const;

  app.get<Params>(
    '/item-types/:id/fieldsets',
    { schema: { response: { 200: FieldsetList } } },
    async (request) => ({
      data: (await listFieldsets(request.scope, request.params.id)).map(presentFieldset),
    }),
  );

  app.get<Params>(
    '/fieldsets/:id',
    { schema: { response: { 200: FieldsetDocument } } },
    async (request) => ({
      data: presentFieldset(await findFieldset(request.scope, request.params.id)),
    }),
  );

  app.post<Params & { Body: Static<typeof CreateFieldsetBody> }>(
    '/item-types/:id/fieldsets',
    {
      schema: { body: CreateFieldsetBody, response: { 201: FieldsetDocument } },
      config: fieldsetWrite,
    },
    async (request, reply) => {
      const data = presentFieldset(
        await createFieldset(request.scope, request.params.id, fieldsetInput(request.body, true)),
      );
      return reply.status(201).send({ data });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateFieldsetBody> }>(
    '/fieldsets/:id',
    {
      schema: { body: UpdateFieldsetBody, response: { 200: FieldsetDocument } },
      config: fieldsetWrite,
    },
    async (request) => ({
      data: presentFieldset(
        await updateFieldset(request.scope, request.params.id, fieldsetInput(request.body, false)),
      ),
    }),
  );

  app.delete<Params>(
    '/fieldsets/:id',
    { schema: { response: { 200: FieldsetDocument } }, config: fieldsetChange },
    async (request) => ({
      data: presentFieldset(await destroyFieldset(request.scope, request.params.id)),
    }),
  );

  app.post<Params & { Body: Static<typeof ReorderFieldsAndFieldsetsBody> }>(
    '/item-types/:id/reorder-fields-and-fieldsets',
    {
      schema: { body: ReorderFieldsAndFieldsetsBody, response: OrJob(200, ReorderedFormList) },
      config: { ...fieldsetChange, asyncJob: true },
    },
    async (request, reply) => {
      const data = (
        await reorderFieldsAndFieldsets(
          request.scope,
          request.params.id,
          reorderEntries(request.body),
        )
      ).map(presentSchemaMember);
      return sendResult(deps, request, reply, 200, { data });
    },
  );
}
