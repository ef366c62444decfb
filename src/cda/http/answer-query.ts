import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionResult, GraphQLError, type GraphQLSchema } from 'graphql';
import type { Db } from '../../db/client.ts';
import { scopeFor } from '../../db/environment-scope.ts';
import { assertReaches } from '../../domain/auth/environment-reach.ts';
import { authenticate } from '../../domain/auth/tokens.ts';
import { DomainError } from '../../domain/errors.ts';
import { readableRecords } from '../../domain/items/access/readable-records.ts';
import type { UploadSettings } from '../../domain/uploads/upload-settings.ts';
import { readyEnvironment } from '../../http/plugins/protocol.ts';
import type { TokenWindows } from '../../rate-limit/token-windows.ts';
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
import { throttleDelivery } from './throttle.ts';

// What answers a delivery API request, loaded by routes.ts on the first one: GraphQL and
// the schema builder stay out of the memory of a server no front-end reads from.

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

export type DeliveryDeps = Readonly<{
  db: Db;
  uploads: Pick<UploadSettings, 'assetsBase'>;
  /** Each token's request counts, when `FIELDHOUSE_CDA_RATE_LIMIT` is set. */
  throttle: TokenWindows | null;
}>;

async function deliverySchema(
  { db, uploads, throttle }: DeliveryDeps,
  options: DeliveryOptions,
  request: FastifyRequest,
  reply: FastifyReply,
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
  if (throttle) throttleDelivery(throttle, actor.token.id, reply);
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

/** One query, from its request to the JSON sent back. */
export async function answerQuery(
  deps: DeliveryDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  const options = deliveryOptions(request);
  const graphqlRequest = graphqlRequestOf(request);
  const { schema, context } = await deliverySchema(deps, options, request, reply);
  const outcome = await runQuery(schema, graphqlRequest, context);
  reply.header('x-max-complexity', String(MAX_COMPLEXITY));
  if (outcome.complexity !== null) reply.header('x-complexity', String(outcome.complexity));
  if (context.tags) reply.header('x-cache-tags', context.tags.header());
  reply.header('cache-control', 'private, max-age=0, must-revalidate');
  reply.type('application/json; charset=utf-8');
  return JSON.stringify(publicErrors(outcome.result, request));
}
