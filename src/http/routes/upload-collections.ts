import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { UploadCollectionInput } from '../../domain/upload-collections/collection-input.ts';
import { createUploadCollection } from '../../domain/upload-collections/create-upload-collection.ts';
import { destroyUploadCollection } from '../../domain/upload-collections/destroy-upload-collection.ts';
import { findUploadCollection } from '../../domain/upload-collections/find-upload-collection.ts';
import { listUploadCollections } from '../../domain/upload-collections/list-upload-collections.ts';
import { reorderUploadCollections } from '../../domain/upload-collections/reorder-upload-collections.ts';
import { updateUploadCollection } from '../../domain/upload-collections/update-upload-collection.ts';
import { presentUploadCollection } from '../../presenters/upload-collection.ts';
import { relationshipIds } from '../jsonapi.ts';
import { sendResult } from '../respond.ts';
import {
  ReorderUploadCollectionsResponses,
  UploadCollectionDocument,
  UploadCollectionListDocument,
} from '../responses/uploads.ts';
import { filterIds, IdsFilterQuery, reorderEntries } from '../schemas/menu-tree.ts';
import {
  CreateUploadCollectionBody,
  ReorderUploadCollectionsBody,
  UpdateUploadCollectionBody,
} from '../schemas/upload-collection.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };

type Body = Static<typeof UpdateUploadCollectionBody>;

function toInput(body: Body): UploadCollectionInput {
  const data = body.data;
  return {
    id: data.id,
    label: data.attributes?.label,
    position: data.attributes?.position,
    parentId: relationshipIds({ parent: data.relationships?.parent }).parent,
    childIds: data.relationships?.children?.data.map((child) => child.id),
  };
}

export async function uploadCollectionRoutes(app: FastifyInstance, deps: AppDeps) {
  const write = {
    permission: 'can_manage_upload_collections',
    resourceType: 'upload_collection',
  } as const;
  const one = { 200: UploadCollectionDocument };

  app.get<{ Querystring: Static<typeof IdsFilterQuery> }>(
    '/upload-collections',
    { schema: { querystring: IdsFilterQuery, response: { 200: UploadCollectionListDocument } } },
    async (request) => ({
      data: (await listUploadCollections(request.scope, filterIds(request.query))).map(
        presentUploadCollection,
      ),
    }),
  );

  app.get<Params>('/upload-collections/:id', { schema: { response: one } }, async (request) => ({
    data: presentUploadCollection(await findUploadCollection(request.scope, request.params.id)),
  }));

  app.post<{ Body: Static<typeof CreateUploadCollectionBody> }>(
    '/upload-collections',
    {
      schema: { body: CreateUploadCollectionBody, response: { 201: UploadCollectionDocument } },
      config: write,
    },
    async (request, reply) => {
      const input = toInput(request.body as Body);
      const created = await createUploadCollection(request.scope, {
        ...input,
        label: request.body.data.attributes?.label ?? '',
      });
      return reply.status(201).send({ data: presentUploadCollection(created) });
    },
  );

  // Before /:id, which would take "reorder" for an id.
  app.post<{ Body: Static<typeof ReorderUploadCollectionsBody> }>(
    '/upload-collections/reorder',
    {
      schema: { body: ReorderUploadCollectionsBody, response: ReorderUploadCollectionsResponses },
      config: { ...write, asyncJob: true },
    },
    async (request, reply) => {
      const moved = await reorderUploadCollections(request.scope, reorderEntries(request.body));
      return sendResult(deps, request, reply, 200, { data: moved.map(presentUploadCollection) });
    },
  );

  app.put<Params & { Body: Body }>(
    '/upload-collections/:id',
    { schema: { body: UpdateUploadCollectionBody, response: one }, config: write },
    async (request) => ({
      data: presentUploadCollection(
        await updateUploadCollection(request.scope, request.params.id, toInput(request.body)),
      ),
    }),
  );

  app.delete<Params>(
    '/upload-collections/:id',
    { schema: { response: one }, config: write },
    async (request) => ({
      data: presentUploadCollection(
        await destroyUploadCollection(request.scope, request.params.id),
      ),
    }),
  );
}
