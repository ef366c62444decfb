import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { readableOnly } from '../../domain/items/access/access.ts';
import { uploadReferences } from '../../domain/uploads/record-references.ts';
import { presentItem } from '../../presenters/item.ts';
import { actorOf } from '../actor.ts';
import { UploadReferencesDocument } from '../responses/uploads.ts';
import { UploadReferencesQuery } from '../schemas/upload-references.ts';
import type { AppDeps } from '../types.ts';

type ReferencesRequest = {
  Params: { id: string };
  Querystring: Static<typeof UploadReferencesQuery>;
};

/** `GET /uploads/:id/references`: the records whose values name the upload. */
export async function uploadReferenceRoutes(app: FastifyInstance, _deps: AppDeps) {
  app.get<ReferencesRequest>(
    '/uploads/:id/references',
    {
      schema: { querystring: UploadReferencesQuery, response: { 200: UploadReferencesDocument } },
      config: { uploadAction: 'read' },
    },
    async (request) => {
      const actor = actorOf(request);
      const records = await uploadReferences(request.scope, actor, request.params.id, {
        version: request.query.version ?? 'current',
        nested: request.query.nested === 'true',
      });
      // Only the referencing records the role may read are shown.
      const readable = await readableOnly(actor, request.scope, records);
      return { data: readable.map(presentItem) };
    },
  );
}
