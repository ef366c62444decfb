import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestUpload } from '../../domain/uploads/request-upload.ts';
import { presentUploadRequest } from '../../presenters/upload-request.ts';
import { actorOf } from '../actor.ts';
import { relationshipIds } from '../jsonapi.ts';
import { UploadRequestDocument } from '../responses/uploads.ts';
import { CreateUploadRequestBody } from '../schemas/upload.ts';
import type { UploadRouteDeps } from './upload-route-deps.ts';

/** Where this server is reached: FIELDHOUSE_PUBLIC_URL, else the origin the request came to. */
function publicOrigin(deps: UploadRouteDeps, request: FastifyRequest): string {
  return deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

export async function uploadRequestRoutes(app: FastifyInstance, deps: UploadRouteDeps) {
  app.post<{ Body: Static<typeof CreateUploadRequestBody> }>(
    '/upload-requests',
    {
      schema: { body: CreateUploadRequestBody, response: { 201: UploadRequestDocument } },
      config: { uploadAction: 'create', resourceType: 'upload_request' },
    },
    async (request, reply) => {
      const data = request.body.data;
      const issued = await requestUpload(request.scope, actorOf(request), deps.uploads, {
        filename: data.attributes?.filename as string | undefined,
        uploadCollectionId: relationshipIds(data.relationships).upload_collection,
      });
      // Never 202: the client would poll /job-results for the upload request forever.
      return reply.status(201).send({
        data: presentUploadRequest(issued, `${publicOrigin(deps, request)}/_uploads/`),
      });
    },
  );
}
