import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import {
  type EnvironmentRef,
  environmentRef,
  type Scope,
  scopeFor,
} from '../../db/environment-scope.ts';
import { assertReaches } from '../../domain/auth/environment-reach.ts';
import {
  type Authenticated,
  authenticate,
  type RequestedEnvironment,
} from '../../domain/auth/tokens.ts';
import { DomainError } from '../../domain/errors.ts';
import { assertMayAtAll } from '../../domain/items/access/access.ts';
import { assertMayAtAllOnUploads } from '../../domain/uploads/authorization.ts';

const ACCEPTED_MEDIA = /application\/(json|vnd\.api\+json)/;

function bearerToken(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * The checks every API request passes, in the order the real API applies them:
 * a present but wrong token, then Accept, then a missing token, then the
 * API version and environment, then the role's permission for the route.
 */
export function registerProtocolHooks(app: FastifyInstance, db: Db): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('scope', null as unknown as Scope);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('cache-control', 'max-age=0, private, must-revalidate');
    if (request.is404) return;
    // Read once: Fastify builds a new routeOptions object on every access.
    const config = request.routeOptions.config;
    if (config.public) return;

    await admit(request, reply, db, config.checksTokenInChange === true);
  });

  app.addHook('preValidation', async (request) => {
    const expected = request.routeOptions.config.resourceType;
    if (!expected) return;
    const data = (request.body as { data?: unknown } | undefined)?.data;
    // Only a single resource is checked here; a missing or malformed `data` is the schema's to report.
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return;
    const actual = (data as { type?: unknown }).type ?? null;
    if (actual !== expected) {
      throw new DomainError('INVALID_TYPE', `data.type must be "${expected}"`, {
        expected,
        actual,
      });
    }
  });
}

/** The environment `X-Environment` names, else null for the primary. */
function requestedId(request: FastifyRequest): string | null {
  const header = request.headers['x-environment'];
  return typeof header === 'string' && header !== '' ? header : null;
}

/** The requested environment, read with the token, if it can serve requests. */
export function readyEnvironment(
  id: string | null,
  row: RequestedEnvironment | null,
): EnvironmentRef {
  if (!row || row.status === 'destroying') {
    throw new DomainError('INVALID_ENVIRONMENT', `Environment "${id}" does not exist`);
  }
  if (row.status !== 'ready') {
    throw new DomainError('ENVIRONMENT_NOT_READY', `Environment "${row.id}" is being created`);
  }
  return environmentRef(row);
}

function checkEnvironmentAccess(request: FastifyRequest, environment: EnvironmentRef): void {
  assertReaches(request.actor?.environmentsAccess ?? 'none', environment);
}

/**
 * The checks that follow the request's token: reads it (or, for a route whose change
 * checks the access version itself, `mayAssume`, takes the last answer this process read:
 * domain/auth/assumed-access.ts), then Accept, the API version, the environment and the
 * role's rights for the route; sets the request's actor and scope. A refusal on an answer
 * taken without reading it is not given: the answer to give is the one on the token as it
 * is now, read afresh. Run again that way when an assumed answer could not be confirmed
 * (assumed-token.ts).
 */
export async function admit(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Db,
  mayAssume: boolean,
): Promise<void> {
  const token = bearerToken(request);
  const found = token
    ? await authenticate(db, token, requestedId(request), 'cma', mayAssume)
    : null;
  if (!found?.assumed) return admitWith(request, reply, db, token, found);
  try {
    admitWith(request, reply, db, token, found);
  } catch {
    await admit(request, reply, db, false);
  }
}

/** admit's checks, on the answer `found` for `token` (absent: undefined, malformed: null). */
function admitWith(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Db,
  token: string | null | undefined,
  found: Authenticated | null,
): void {
  const config = request.routeOptions.config;
  if (token !== undefined) {
    if (!found) {
      throw new DomainError('INVALID_AUTHORIZATION_HEADER', 'The API token is not valid');
    }
    request.actor = found.actor;
  }
  if (!ACCEPTED_MEDIA.test(request.headers.accept ?? '')) {
    throw new DomainError('INVALID_ACCEPT_HEADER', 'Accept must be application/json');
  }
  if (token === undefined) {
    throw new DomainError('INVALID_SITE', 'Send an API token in "Authorization: Bearer <token>"');
  }
  const version = request.headers['x-api-version'];
  if (version !== undefined && version !== '3') {
    throw new DomainError('INVALID_API_VERSION', 'X-Api-Version must be 3');
  }
  reply.header('x-api-version', '3');
  const environment = found?.environment ?? null;
  const ref = readyEnvironment(requestedId(request), environment);
  checkEnvironmentAccess(request, ref);
  request.scope = scopeOf(db, ref, found);
  const permission = config.permission;
  if (permission && !request.actor?.permissions.has(permission)) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', `The token's role lacks ${permission}`);
  }
  if (config.reachesEveryEnvironment && request.actor?.environmentsAccess !== 'all') {
    throw new DomainError(
      'INSUFFICIENT_PERMISSIONS',
      `Webhooks receive the events of every environment: the token's role needs environments_access "all", not "${request.actor?.environmentsAccess}"`,
    );
  }
  const itemAction = config.itemAction;
  if (itemAction && request.actor) assertMayAtAll(request.actor, request.scope, itemAction);
  const uploadAction = config.uploadAction;
  if (uploadAction && request.actor) {
    assertMayAtAllOnUploads(request.actor, request.scope.environment.id, uploadAction);
  }
}

/**
 * The request's scope, at the versions read with its token; a token answer taken without
 * reading it (assumed) gives its schema version, which the change's entry checks, no
 * records version, and the access version its change checks.
 */
function scopeOf(db: Db, ref: EnvironmentRef, found: Authenticated | null): Scope {
  const environment = found?.environment;
  if (!environment) return scopeFor(db, ref);
  if (found.assumed) {
    return scopeFor(
      db,
      ref,
      { schema: environment.schema_version, records: null },
      {
        version: found.accessVersion,
        confirmed: false,
      },
    );
  }
  return scopeFor(db, ref, {
    schema: environment.schema_version,
    records: environment.records_version,
  });
}
