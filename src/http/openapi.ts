import swagger from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { type Components, completeDocument, hoistNamed } from './openapi-document.ts';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The query string a route parses itself (its own checks and errors, e.g. `GET
     * /items`): documented in openapi.json as `querystring` is, never validated by Fastify.
     */
    parsedQuerystring?: unknown;
    /** The headers a route reads itself: documented as `headers` are, never validated. */
    parsedHeaders?: unknown;
    /** The body a route parses itself: documented as `body` is, never validated. */
    parsedBody?: unknown;
  }
}

/** The environment a request works in, for the CMA and the delivery API alike. */
export const EnvironmentHeader = Type.Optional(
  Type.String({ description: 'The environment to work in; the primary one when absent' }),
);

/**
 * What every request through the CMA's protocol checks may send besides its token
 * (`plugins/protocol.ts`); the official client sends both.
 */
const CmaHeaders = Type.Object({
  'X-Api-Version': Type.Optional(
    Type.Literal('3', { description: 'The only version there is; any other is refused' }),
  ),
  'X-Environment': EnvironmentHeader,
});

/**
 * The route's schema as documented: named pieces of its body and answers referenced (its
 * query and path parameters are listed one by one, so they stay whole); what it parses
 * itself shown as what Fastify would validate; the CMA's headers on the routes that
 * pass its protocol checks.
 */
function documentedSchema(
  schema: FastifySchema | undefined,
  cma: boolean,
  components: Components,
): FastifySchema {
  const { parsedQuerystring, parsedHeaders, parsedBody, response, body, ...rest } = schema ?? {};
  const documentedBody = parsedBody ?? body;
  const headers = parsedHeaders ?? (cma ? CmaHeaders : undefined);
  return {
    ...rest,
    ...(documentedBody === undefined ? {} : { body: hoistNamed(documentedBody, components) }),
    ...(response === undefined ? {} : { response: hoistNamed(response, components) }),
    ...(parsedQuerystring === undefined ? {} : { querystring: parsedQuerystring }),
    ...(headers === undefined ? {} : { headers }),
  };
}

/**
 * Collects every route's TypeBox schemas into an OpenAPI 3.1 document as routes register,
 * so the document is generated from the very schemas requests are validated with.
 * Must be registered before the routes.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  const components: Components = new Map();
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
    transform: ({ schema, url, route }) => ({
      schema: documentedSchema(schema, route.config?.public !== true, components),
      url,
    }),
    transformObject: completeDocument(components),
  });
}

/** The served document; route `/openapi.json` returns it without a token. */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
