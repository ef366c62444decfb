import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { bulkDestroyUploads } from '../../domain/uploads/bulk-destroy-uploads.ts';
import { bulkMoveUploads } from '../../domain/uploads/bulk-move-uploads.ts';
import { bulkTagUploads } from '../../domain/uploads/bulk-tag-uploads.ts';
import { createUpload } from '../../domain/uploads/create-upload.ts';
import { destroyUpload } from '../../domain/uploads/destroy-upload.ts';
import { readUpload } from '../../domain/uploads/find-upload.ts';
import { listUploads } from '../../domain/uploads/list-uploads.ts';
import { updateUpload } from '../../domain/uploads/update-upload.ts';
import { presentBulkOutcome, presentUpload } from '../../presenters/upload.ts';
import { actorOf } from '../actor.ts';
import { relationshipIds } from '../jsonapi.ts';
import { sendResult } from '../respond.ts';
import {
  BulkOutcomeResponses,
  UploadChangeResponses,
  UploadDocument,
  UploadListDocument,
} from '../responses/uploads.ts';
import {
  BulkDestroyUploadsBody,
  BulkMoveUploadsBody,
  BulkTagUploadsBody,
  CreateUploadBody,
  ListUploadsQuery,
  UpdateUploadBody,
  UpdateUploadQuery,
} from '../schemas/upload.ts';
import type { UploadRouteDeps } from './upload-route-deps.ts';

type Params = { Params: { id: string } };

const DEFAULT_PAGE = 30;

export async function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps) {
  const present = (upload: Parameters<typeof presentUpload>[0]) =>
    presentUpload(upload, deps.uploads.assetsBase());

  app.get<{ Querystring: Static<typeof ListUploadsQuery> }>(
    '/uploads',
    {
      schema: { querystring: ListUploadsQuery, response: { 200: UploadListDocument } },
      config: { uploadAction: 'read' },
    },
    async (request) => {
      const { filter, page } = request.query;
      const result = await listUploads(request.scope, actorOf(request), {
        ids: filter?.ids?.split(',').map((id) => id.trim()),
        query: filter?.query,
        fields: filter?.fields,
        locale: request.query.locale,
        orderBy: request.query.order_by,
        offset: Number(page?.offset ?? 0),
        limit: Number(page?.limit ?? DEFAULT_PAGE),
      });
      return { data: result.uploads.map(present), meta: { total_count: result.totalCount } };
    },
  );

  app.get<Params>(
    '/uploads/:id',
    { schema: { response: { 200: UploadDocument } }, config: { uploadAction: 'read' } },
    async (request) => ({
      data: present(await readUpload(request.scope, actorOf(request), request.params.id)),
    }),
  );

  // DatoCMS answers a job; Fieldhouse analyses within the request (bounded: see
  // domain/uploads/analysis) and answers the upload, or the job when async jobs are on.
  app.post<{ Body: Static<typeof CreateUploadBody> }>(
    '/uploads',
    {
      schema: { body: CreateUploadBody, response: UploadChangeResponses },
      config: { uploadAction: 'create', resourceType: 'upload', asyncJob: true },
    },
    async (request, reply) => {
      const data = request.body.data;
      const attributes = data.attributes ?? { path: '' };
      const created = await createUpload(request.scope, actorOf(request), deps.uploads, {
        id: data.id,
        path: attributes.path,
        author: attributes.author,
        copyright: attributes.copyright,
        notes: attributes.notes,
        tags: attributes.tags,
        defaultFieldMetadata: attributes.default_field_metadata,
        uploadCollectionId: relationshipIds(data.relationships).upload_collection,
      });
      return sendResult(deps, request, reply, 201, { data: present(created) });
    },
  );

  // As DatoCMS: a job (async jobs on) or the upload. Which upload actions the role needs
  // depends on what the body changes; the operation checks each.
  app.put<
    Params & {
      Body: Static<typeof UpdateUploadBody>;
      Querystring: Static<typeof UpdateUploadQuery>;
    }
  >(
    '/uploads/:id',
    {
      schema: {
        body: UpdateUploadBody,
        querystring: UpdateUploadQuery,
        response: UploadChangeResponses,
      },
      config: {
        uploadAction: ['update', 'replace_asset', 'edit_creator', 'move'],
        resourceType: 'upload',
        asyncJob: true,
      },
    },
    async (request, reply) => {
      const data = request.body.data;
      const attributes = data.attributes ?? {};
      const relationships = relationshipIds(data.relationships);
      const updated = await updateUpload(
        request.scope,
        actorOf(request),
        deps.uploads,
        request.params.id,
        {
          path: attributes.path,
          basename: attributes.basename,
          replaceStrategy: request.query.replace_strategy,
          author: attributes.author,
          copyright: attributes.copyright,
          notes: attributes.notes,
          tags: attributes.tags,
          defaultFieldMetadata: attributes.default_field_metadata,
          uploadCollectionId: relationships.upload_collection,
          creatorId: relationships.creator ?? undefined,
        },
      );
      return sendResult(deps, request, reply, 200, { data: present(updated) });
    },
  );

  app.delete<Params>(
    '/uploads/:id',
    { schema: { response: { 200: UploadDocument } }, config: { uploadAction: 'delete' } },
    async (request) => ({
      data: present(
        await destroyUpload(request.scope, actorOf(request), deps.uploads, request.params.id),
      ),
    }),
  );

  const uploadIds = (uploads: { data: { id: string }[] }) => uploads.data.map((u) => u.id);

  app.post<{ Body: Static<typeof BulkTagUploadsBody> }>(
    '/uploads/bulk/tag',
    {
      schema: { body: BulkTagUploadsBody, response: BulkOutcomeResponses },
      config: { uploadAction: 'update', resourceType: 'upload_bulk_tag_operation', asyncJob: true },
    },
    async (request, reply) => {
      const data = request.body.data;
      const outcome = await bulkTagUploads(request.scope, actorOf(request), deps.uploads, {
        uploadIds: uploadIds(data.relationships?.uploads ?? { data: [] }),
        tags: data.attributes?.tags ?? [],
      });
      return sendResult(deps, request, reply, 200, presentBulkOutcome(outcome));
    },
  );

  app.post<{ Body: Static<typeof BulkMoveUploadsBody> }>(
    '/uploads/bulk/set-upload-collection',
    {
      schema: { body: BulkMoveUploadsBody, response: BulkOutcomeResponses },
      config: {
        uploadAction: 'move',
        resourceType: 'upload_bulk_set_upload_collection_operation',
        asyncJob: true,
      },
    },
    async (request, reply) => {
      const relationships = request.body.data.relationships;
      const outcome = await bulkMoveUploads(request.scope, actorOf(request), deps.uploads, {
        uploadIds: uploadIds(relationships?.uploads ?? { data: [] }),
        uploadCollectionId: relationships?.upload_collection.data?.id ?? null,
      });
      return sendResult(deps, request, reply, 200, presentBulkOutcome(outcome));
    },
  );

  app.post<{ Body: Static<typeof BulkDestroyUploadsBody> }>(
    '/uploads/bulk/destroy',
    {
      schema: { body: BulkDestroyUploadsBody, response: BulkOutcomeResponses },
      config: {
        uploadAction: 'delete',
        resourceType: 'upload_bulk_destroy_operation',
        asyncJob: true,
      },
    },
    async (request, reply) => {
      const relationships = request.body.data.relationships;
      const outcome = await bulkDestroyUploads(
        request.scope,
        actorOf(request),
        deps.uploads,
        uploadIds(relationships?.uploads ?? { data: [] }),
      );
      return sendResult(deps, request, reply, 200, presentBulkOutcome(outcome));
    },
  );
}
