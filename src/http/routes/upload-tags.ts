import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createUploadTag } from '../../domain/upload-tags/create-upload-tag.ts';
import { listUploadSmartTags } from '../../domain/upload-tags/list-upload-smart-tags.ts';
import { listUploadTags } from '../../domain/upload-tags/list-upload-tags.ts';
import { DEFAULT_TAG_PAGE, type TagQuery } from '../../domain/upload-tags/tag-page.ts';
import { presentUploadTag } from '../../presenters/upload-tag.ts';
import {
  UploadSmartTagListDocument,
  UploadTagDocument,
  UploadTagListDocument,
} from '../responses/uploads.ts';
import { CreateUploadTagBody, ListUploadTagsQuery } from '../schemas/upload-tag.ts';

type ListQuery = { Querystring: Static<typeof ListUploadTagsQuery> };

function tagQuery(query: Static<typeof ListUploadTagsQuery>): TagQuery {
  return {
    query: query.filter?.query,
    offset: Number(query.page?.offset ?? 0),
    limit: Number(query.page?.limit ?? DEFAULT_TAG_PAGE),
  };
}

export async function uploadTagRoutes(app: FastifyInstance) {
  app.get<ListQuery>(
    '/upload-tags',
    {
      schema: {
        querystring: ListUploadTagsQuery,
        response: { 200: UploadTagListDocument },
      },
      config: { uploadAction: 'read' },
    },
    async (request) => {
      const page = await listUploadTags(request.scope, tagQuery(request.query));
      return {
        data: page.names.map((name) => presentUploadTag('upload_tag', name)),
        meta: { total_count: page.totalCount },
      };
    },
  );

  // Whoever may put tags on uploads (creating or updating them) may make a tag.
  app.post<{ Body: Static<typeof CreateUploadTagBody> }>(
    '/upload-tags',
    {
      schema: {
        body: CreateUploadTagBody,
        response: { 200: UploadTagDocument, 201: UploadTagDocument },
      },
      config: { uploadAction: ['create', 'update'], resourceType: 'upload_tag' },
    },
    async (request, reply) => {
      const tag = await createUploadTag(request.scope, request.body.data.attributes?.name ?? '');
      return reply
        .status(tag.created ? 201 : 200)
        .send({ data: presentUploadTag('upload_tag', tag.name) });
    },
  );

  app.get<ListQuery>(
    '/upload-smart-tags',
    {
      schema: {
        querystring: ListUploadTagsQuery,
        response: { 200: UploadSmartTagListDocument },
      },
      config: { uploadAction: 'read' },
    },
    async (request) => {
      const page = await listUploadSmartTags(request.scope, tagQuery(request.query));
      return {
        data: page.names.map((name) => presentUploadTag('upload_smart_tag', name)),
        meta: { total_count: page.totalCount },
      };
    },
  );
}
