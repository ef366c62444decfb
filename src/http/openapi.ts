import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema } from 'fastify';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The query string a route parses itself (its own checks and errors, e.g. `GET
     * /items`): documented in openapi.json as `querystring` is, never validated by Fastify.
     */
    parsedQuerystring?: unknown;
  }
}

/** What every refusal answers: the closed error table of `errors.ts`. */
const ErrorSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        id: Type.String(),
        type: Type.Literal('api_error'),
        attributes: Type.Object({
          code: Type.String(),
          doc_url: Type.String(),
          details: Type.Record(Type.String(), Type.Unknown()),
        }),
      }),
    ),
  },
  { description: 'A refusal: the error codes and their details' },
);
// As plain JSON, as the rest of the document is once rendered (no TypeBox symbols).
const ErrorDocument = JSON.parse(JSON.stringify(ErrorSchema)) as typeof ErrorSchema;

/** The route's schema as documented: its self-parsed query string shown as its query. */
function documentedSchema(schema: FastifySchema | undefined): FastifySchema | undefined {
  if (schema?.parsedQuerystring === undefined) return schema;
  const { parsedQuerystring, ...rest } = schema;
  return { ...rest, querystring: parsedQuerystring };
}

type Operation = {
  parameters?: { in: string; schema?: { type?: unknown }; style?: string; explode?: boolean }[];
  responses?: Record<string, unknown>;
};
type Document = { paths?: Record<string, Record<string, Operation>> };

/**
 * A query parameter that is an object is written with brackets (`page[limit]=10`,
 * `filter[fields][title][eq]=x`): OpenAPI's deepObject style. And every operation may be
 * refused with an error document.
 */
const completeOperations: SwaggerTransformObject = (documentObject) => {
  const document = (documentObject as { openapiObject: Document }).openapiObject;
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema?.type === 'object') {
          parameter.style = 'deepObject';
          parameter.explode = true;
        }
      }
      operation.responses = {
        ...operation.responses,
        default: {
          description: ErrorDocument.description,
          content: { 'application/json': { schema: ErrorDocument } },
        },
      };
    }
  }
  return document as ReturnType<SwaggerTransformObject>;
};

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
    transform: ({ schema, url }) => ({ schema: documentedSchema(schema) ?? schema, url }),
    transformObject: completeOperations,
  });
}

/** The served document; route `/openapi.json` returns it without a token. */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
