import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionResult, GraphQLError, type GraphQLSchema } from 'graphql';
import type { Db } from '../../db/client.ts';
import { scopeFor } from '../../db/environment-scope.ts';
import { assertReaches } from '../../domain/auth/environment-reach.ts';
import { authenticate } from '../../domain/auth/tokens.ts';
import { DomainError } from '../../domain/errors.ts';
import { readableRecords } from '../../domain/items/access/readable-records.ts';
import type { UploadSettings } from '../../domain/uploads/upload-settings.ts';
import { EnvironmentHeader } from '../../http/openapi.ts';
import { readyEnvironment } from '../../http/plugins/protocol.ts';
import { NoContent } from '../../http/schemas/documents.ts';
import { CacheTagCollector, modeOf } from '../cache-tags/cache-tags.ts';
import { MAX_COMPLEXITY } from '../limits/complexity.ts';
import { ExecutionBudget } from '../limits/execution-budget.ts';
import { blockLoader } from '../resolvers/block-loader.ts';
import type { DeliveryContext } from '../resolvers/context.ts';
import { childrenLoader, recordLoader } from '../resolvers/record-loader.ts';
import { runQuery } from '../run-query.ts';
import { buildDeliverySchema } from '../schema/build-schema.ts';
import type { BlockModels } from '../schema/deep-filter-inputs.ts';
import { deliverySchemaCacheOf } from '../schema/schema-cache.ts';
import { loadSnapshot } from '../schema/snapshot.ts';
import { mayReadModel, permissionsFingerprint } from '../schema/visible-models.ts';
import { uploadLoader } from '../uploads/upload-loader.ts';
import { uploadReach } from '../uploads/upload-reach.ts';
import { type DeliveryOptions, deliveryOptions } from './delivery-headers.ts';
import { graphqlRequestOf } from './graphql-request.ts';

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

/** Errors of our own making keep their message; anything else is not the caller's business. */
function publicErrors(result: ExecutionResult, request: FastifyRequest): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map((error) => {
    const original = error.originalError;
    if (!original || original instanceof GraphQLError || original instanceof DomainError)
      return error;
    request.log.error({ err: original }, 'delivery query failed');
    return new GraphQLError('Internal error while resolving this field', {
      nodes: error.nodes,
      path: error.path,
    });
  });
  return { ...result, errors };
}

/** `X-Base-Editing-Url` and, in a sandbox, its environment: where `_editingUrl` points. */
function editingBase(base: string | null, ref: { id: string; isPrimary: boolean }): string | null {
  if (base === null) return null;
  const trimmed = base.replace(/\/+$/, '');
  return ref.isPrimary ? trimmed : `${trimmed}/environments/${ref.id}`;
}

type DeliveryDeps = Readonly<{ db: Db; uploads: Pick<UploadSettings, 'assetsBase'> }>;

async function deliverySchema(
  { db, uploads }: DeliveryDeps,
  options: DeliveryOptions,
  request: FastifyRequest,
): Promise<{ schema: GraphQLSchema; context: DeliveryContext }> {
  if (options.token === null)
    throw new DomainError(
      'INVALID_AUTHORIZATION_HEADER',
      'Send an API token in "Authorization: Bearer <token>"',
    );
  const found = await authenticate(db, options.token, options.environmentId, 'cda');
  if (!found)
    throw new DomainError(
      'INVALID_AUTHORIZATION_HEADER',
      'The API token is not valid for the Content Delivery API',
    );
  const { actor, environment } = found;
  const ref = readyEnvironment(options.environmentId, environment);
  assertReaches(actor.environmentsAccess, ref);
  if (options.drafts && !actor.token.can_access_cda_preview)
    throw new DomainError(
      'INSUFFICIENT_PERMISSIONS',
      'Reading drafts needs a token with preview access',
    );
  // readyEnvironment refused a missing row: the versions are there.
  const versions = environment as NonNullable<typeof environment>;
  const scope = scopeFor(db, ref, {
    schema: versions.schema_version,
    records: versions.records_version,
  });
  const schema = await deliverySchemaCacheOf(db).get(
    {
      environmentNumber: ref.number,
      schemaVersion: versions.schema_version,
      permissions: permissionsFingerprint(actor),
      strict: options.strict,
    },
    async () =>
      buildDeliverySchema(
        await loadSnapshot(scope.db),
        (model) => mayReadModel(actor, ref.id, model),
        { strict: options.strict },
      ),
  );
  const budget = ExecutionBudget.startingNow();
  const readable = await readableRecords(actor, scope);
  const visibility = { drafts: options.drafts, strict: options.strict, readable };
  const tags = options.cacheTags ? new CacheTagCollector(ref.id, modeOf(options.drafts)) : null;
  const reach = uploadReach(actor, scope);
  request.log.debug({ environment: ref.id }, 'delivery schema ready');
  return {
    schema,
    context: {
      scope,
      drafts: options.drafts,
      strict: options.strict,
      readable,
      locales: (schema.extensions.locales ?? []) as readonly string[],
      blockModels: (schema.extensions.blockModels ?? new Map()) as BlockModels,
      records: recordLoader(scope, visibility, budget, tags),
      children: childrenLoader(scope, visibility, budget, tags),
      blocks: blockLoader(scope, budget),
      uploads: uploadLoader(scope, reach, budget, tags),
      uploadReach: reach,
      assetsBase: uploads.assetsBase(),
      editingBase: editingBase(options.baseEditingUrl, ref),
      inverse: new Map(),
      tags,
      budget,
    },
  };
}

/**
 * The GraphQL Content Delivery API: `POST`/`GET /graphql` (and the deprecated path
 * forms) answered as DatoCMS's is, for `@datocms/cda-client` with `graphqlEndpointUrl`.
 * Outside the CMA's protocol checks (Accept, X-Api-Version, Content-Type).
 */
export async function deliveryRoutes(app: FastifyInstance, deps: DeliveryDeps): Promise<void> {
  // This plugin's own parsers: the body is JSON whatever Content-Type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const config = { public: true };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(CORS);
    const options = deliveryOptions(request);
    const graphqlRequest = graphqlRequestOf(request);
    const { schema, context } = await deliverySchema(deps, options, request);
    const outcome = await runQuery(schema, graphqlRequest, context);
    reply.header('x-max-complexity', String(MAX_COMPLEXITY));
    if (outcome.complexity !== null) reply.header('x-complexity', String(outcome.complexity));
    if (context.tags) reply.header('x-cache-tags', context.tags.header());
    reply.header('cache-control', 'private, max-age=0, must-revalidate');
    reply.type('application/json; charset=utf-8');
    return JSON.stringify(publicErrors(outcome.result, request));
  };

  for (const url of PATHS) {
    app.post(url, { config, schema: POST_SCHEMA }, handler);
    app.get(url, { config, schema: GET_SCHEMA }, handler);
    app.options(
      url,
      { config, schema: { response: { 204: NoContent } } },
      async (_request, reply) => {
        reply.headers(CORS).code(204);
        return '';
      },
    );
  }
}
