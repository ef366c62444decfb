import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createUpload } from '../../domain/uploads/create-upload.ts';
import { readUpload } from '../../domain/uploads/find-upload.ts';
import { listUploads } from '../../domain/uploads/list-uploads.ts';
import { presentUpload } from '../../presenters/upload.ts';
import { actorOf } from '../actor.ts';
import { relationshipIds } from '../jsonapi.ts';
import { sendResult } from '../respond.ts';
import {
  CreateUploadBody,
  ListUploadsQuery,
  UploadChangeResponses,
  UploadDocument,
  UploadListDocument,
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
}
