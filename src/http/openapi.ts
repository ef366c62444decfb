import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/**
 * Collects every route's TypeBox schemas into an OpenAPI 3.1 document as routes register,
 * so the document is generated from the very schemas requests are validated with.
 * Must be registered before the routes.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fieldhouse Content Management API',
        description:
          'The DatoCMS Content Management API wire protocol (schema and webhooks), self-hosted.',
        version,
      },
      components: {
        securitySchemes: { bearerToken: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearerToken: [] }],
    },
  });
}

/** The served document; route `/openapi.json` returns it without a token. */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
