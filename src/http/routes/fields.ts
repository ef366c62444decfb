import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createField } from '../../domain/fields/create-field.ts';
import { destroyField } from '../../domain/fields/destroy-field.ts';
import { duplicateField } from '../../domain/fields/duplicate-field.ts';
import {
  findField,
  listFields,
  referencingFields,
  relatedFields,
} from '../../domain/fields/read-fields.ts';
import { updateField } from '../../domain/fields/update-field.ts';
import { presentField, presentFieldChange } from '../../presenters/field.ts';
import { presentKept, presentKeptList } from '../../presenters/kept.ts';
import { sendResult } from '../respond.ts';
import { FieldDocument, FieldList } from '../responses/schema.ts';
import { OrJob } from '../schemas/documents.ts';
import { CreateFieldBody, fieldInput, newFieldInput, UpdateFieldBody } from '../schemas/field.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };

export async function fieldRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // Each field write is one change, which checks the token's access version itself: the
  // request need not read its token first (plugins/assumed-token.ts). `fieldWrite` for a
  // request whose body is a `field` document.
  const fieldChange = {
    permission: 'can_edit_schema',
    asyncJob: true,
    checksTokenInChange: true,
  } as const;
  const fieldWrite = { ...fieldChange, resourceType: 'field' } as const;

  app.get<Params>(
    '/item-types/:id/fields',
    { schema: { response: { 200: FieldList } } },
    async (request) => ({
      data: presentKeptList(await listFields(request.scope, request.params.id), presentField),
    }),
  );

  app.get<Params>(
    '/item-types/:id/fields/referencing',
    { schema: { response: { 200: FieldList } } },
    async (request) => ({
      data: (await referencingFields(request.scope, request.params.id)).map(presentField),
    }),
  );

  app.get<Params>(
    '/item-types/:id/fields/related',
    { schema: { response: { 200: FieldList } } },
    async (request) => ({
      data: (await relatedFields(request.scope, request.params.id)).map(presentField),
    }),
  );

  app.get<Params>(
    '/fields/:id',
    { schema: { response: { 200: FieldDocument } } },
    async (request) => ({
      data: presentKept(await findField(request.scope, request.params.id), presentField),
    }),
  );

  app.post<Params & { Body: Static<typeof CreateFieldBody> }>(
    '/item-types/:id/fields',
    { schema: { body: CreateFieldBody, response: OrJob(201, FieldDocument) }, config: fieldWrite },
    async (request, reply) => {
      const change = await createField(
        request.scope,
        request.params.id,
        newFieldInput(request.body),
      );
      return sendResult(deps, request, reply, 201, presentFieldChange(change));
    },
  );

  app.put<Params & { Body: Static<typeof UpdateFieldBody> }>(
    '/fields/:id',
    { schema: { body: UpdateFieldBody, response: OrJob(200, FieldDocument) }, config: fieldWrite },
    async (request, reply) => {
      const change = await updateField(request.scope, request.params.id, fieldInput(request.body));
      return sendResult(deps, request, reply, 200, presentFieldChange(change));
    },
  );

  app.delete<Params>(
    '/fields/:id',
    { schema: { response: OrJob(200, FieldDocument) }, config: fieldChange },
    async (request, reply) => {
      const change = await destroyField(request.scope, request.params.id);
      return sendResult(deps, request, reply, 200, presentFieldChange(change));
    },
  );

  app.post<Params>(
    '/fields/:id/duplicate',
    { schema: { response: OrJob(201, FieldDocument) }, config: fieldChange },
    async (request, reply) => {
      const change = await duplicateField(request.scope, request.params.id);
      return sendResult(deps, request, reply, 201, presentFieldChange(change));
    },
  );
}
