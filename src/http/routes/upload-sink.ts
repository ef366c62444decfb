import type { FastifyInstance } from 'fastify';
import { receiveUploadBytes } from '../../domain/uploads/receive-bytes.ts';
import type { UploadRouteDeps } from './upload-route-deps.ts';

/**
 * `PUT /_uploads/<token>`: where clients send a file's bytes when they do not go straight
 * to S3. Outside the CMA's protocol: the token in the URL is the credential (the client
 * sends no Authorization header, and `Accept: *\/*`), and the body is not parsed but
 * streamed to storage, with no 1 MB limit. Browsers may call it from any origin (CORS):
 * the token, not the origin, is what is trusted.
 */
export async function uploadSinkRoutes(app: FastifyInstance, deps: UploadRouteDeps) {
  // In this plugin only: every body is left unread for the handler to stream.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-allow-methods', 'PUT');
    reply.header('access-control-allow-headers', 'Content-Type');
  });
  const config = { public: true } as const;
  const schema = { hide: true } as const;

  // A wildcard, not `:token`: tokens are longer than the router allows a parameter.
  app.options('/_uploads/*', { config, schema }, async (_request, reply) =>
    reply.status(204).send(),
  );

  app.put<{ Params: { '*': string } }>(
    '/_uploads/*',
    { config, schema },
    async (request, reply) => {
      const length = request.headers['content-length'];
      await receiveUploadBytes(
        deps.db,
        deps.uploads,
        request.params['*'],
        request.raw,
        length === undefined ? null : Number(length),
      );
      return reply.status(200).send({});
    },
  );
}
