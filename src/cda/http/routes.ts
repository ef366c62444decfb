import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { EnvironmentHeader } from '../../http/openapi.ts';
import { NoContent } from '../../http/schemas/documents.ts';
import { TokenWindows } from '../../rate-limit/token-windows.ts';
import type { DeliveryDeps } from './answer-query.ts';

/** What a query answers: GraphQL's `{data, errors}`. */
const GraphqlResult = Type.Object({
  data: Type.Optional(Type.Unknown()),
  errors: Type.Optional(Type.Array(Type.Object({ message: Type.String() }))),
});

/** The headers `deliveryOptions` reads (the deprecated path forms stand for some). */
const DeliveryHeaders = Type.Object({
  'X-Environment': EnvironmentHeader,
  'X-Include-Drafts': Type.Optional(Type.Literal('true')),
  'X-Exclude-Invalid': Type.Optional(Type.Literal('true')),
  'X-Base-Editing-Url': Type.Optional(Type.String({ description: 'For `_editingUrl`' })),
  'X-Cache-Tags': Type.Optional(Type.Literal('true')),
  'X-Visual-Editing': Type.Optional(
    Type.Union([Type.Literal('v1'), Type.Literal('vercel-v1')], {
      description: 'Accepted; strings are not stega-encoded',
    }),
  ),
});

/** A POST carries the request as a JSON body, read by graphqlRequestOf. */
const POST_SCHEMA = {
  parsedBody: Type.Object({
    query: Type.String(),
    variables: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
    operationName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
  parsedHeaders: DeliveryHeaders,
  response: { 200: GraphqlResult },
};

/** A GET carries the request in its query string, read by graphqlRequestOf. */
const GET_SCHEMA = {
  parsedQuerystring: Type.Object({
    query: Type.String(),
    variables: Type.Optional(Type.String({ description: 'A JSON object' })),
    operationName: Type.Optional(Type.String()),
  }),
  parsedHeaders: DeliveryHeaders,
  response: { 200: GraphqlResult },
};

/** The endpoint and its deprecated forms (DatoCMS's api-endpoints page). */
const PATHS = [
  '/graphql',
  '/graphql/preview',
  '/graphql/environments/:environment',
  '/graphql/environments/:environment/preview',
];

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers':
    'Authorization, Content-Type, X-Environment, X-Include-Drafts, X-Exclude-Invalid, X-Cache-Tags, X-Visual-Editing, X-Base-Editing-Url',
  'access-control-expose-headers':
    'X-Cache-Tags, X-Complexity, X-Max-Complexity, X-RateLimit-Reset',
};

/**
 * The GraphQL Content Delivery API: `POST`/`GET /graphql` (and the deprecated path
 * forms) answered as DatoCMS's is, for `@datocms/cda-client` with `graphqlEndpointUrl`.
 * Outside the CMA's protocol checks (Accept, X-Api-Version, Content-Type).
 */
export async function deliveryRoutes(
  app: FastifyInstance,
  { config, ...deps }: Omit<DeliveryDeps, 'throttle'> & { config: Pick<Config, 'cdaRateLimit'> },
): Promise<void> {
  // This plugin's own parsers: the body is JSON whatever Content-Type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const routeConfig = { public: true };
  // Counted in this process: each API process gives a token the whole budget.
  const limits = config.cdaRateLimit;
  const delivery: DeliveryDeps = { ...deps, throttle: limits ? new TokenWindows(limits) : null };

  // GraphQL and the schema builder load with the first query, not at start (+14 MB).
  let answering: Promise<typeof import('./answer-query.ts')> | undefined;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(CORS);
    answering ??= import('./answer-query.ts');
    const { answerQuery } = await answering;
    return answerQuery(delivery, request, reply);
  };

  for (const url of PATHS) {
    app.post(url, { config: routeConfig, schema: POST_SCHEMA }, handler);
    app.get(url, { config: routeConfig, schema: GET_SCHEMA }, handler);
    app.options(
      url,
      { config: routeConfig, schema: { response: { 204: NoContent } } },
      async (_request, reply) => {
        reply.headers(CORS).code(204);
        return '';
      },
    );
  }
}
