import { createHash, randomBytes } from 'node:crypto';
import { type JoinBuilder, sql } from 'kysely';
import { BoundedMemo } from '../../bounded-memo.ts';
import type { Db } from '../../db/client.ts';
import { preparedShape } from '../../db/query/prepared.ts';
import type { EnvironmentRow, ProjectDatabase } from '../../db/schema.ts';
import type { Actor, CallerToken, Permission } from '../actor.ts';
import type { AuthCache } from '../caches/auth-cache.ts';
import { authCacheOf } from '../caches/caches.ts';
import { deepFreeze } from '../caches/deep-freeze.ts';
import { forgetAnswer, rememberAnswer, rememberedAnswer } from './assumed-access.ts';
import { cmaAccessDue, recordCmaAccess } from './last-access.ts';
import { finalPermissions, ownPermissions } from './permissions.ts';
import type { RoleAttributes } from './role-attributes.ts';
import { loadRoleChain } from './role-graph.ts';

/** A new secret API token: 240 random bits, URL-safe. */
export function generateToken(): string {
  return randomBytes(30).toString('base64url');
}

/** Tokens are stored only as their SHA-256: a leaked database leaks no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// The hashes of tokens requests presented. A client sends the same token with every
// request, and its SHA-256 costs more than all the rest of an embedded authentication.
// Keeping the tokens in use in memory exposes nothing new: a busy process holds them in
// its request buffers anyway.
const presentedHashes = new BoundedMemo<string, string>(1_000);

function presentedTokenHash(token: string): string {
  return presentedHashes.get(token, () => hashToken(token));
}

export function actorFromRole(token: CallerToken, attributes: RoleAttributes): Actor {
  const permissions = new Set<Permission>();
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith('can_') && value === true) permissions.add(name as Permission);
  }
  return {
    token,
    permissions,
    environmentsAccess: attributes.environments_access,
    itemTypePermissions: {
      positive: attributes.positive_item_type_permissions,
      negative: attributes.negative_item_type_permissions,
    },
    uploadPermissions: {
      positive: attributes.positive_upload_permissions,
      negative: attributes.negative_upload_permissions,
    },
    hardcodedAdmin: token.hardcoded_type === 'admin',
  };
}

/** What a request learns of the environment it names, read with its token. */
export type RequestedEnvironment = Pick<
  EnvironmentRow,
  'id' | 'number' | 'schema_name' | 'is_primary' | 'status' | 'schema_version'
> & { records_version: string };

/**
 * What a token authenticates to. `accessVersion`: the access version read with it (project
 * migration 0019), which a change that assumes this answer checks. `assumed`: the answer
 * was not read for this request (assumed-access.ts).
 */
export type Authenticated = {
  actor: Actor;
  environment: RequestedEnvironment | null;
  accessVersion: string;
  assumed?: true;
};

/**
 * The API a token is presented to: the Content Management API needs `can_access_cma`, the
 * Content Delivery API (GraphQL) `can_access_cda` or `can_access_cda_preview`.
 */
export type TokenApi = 'cma' | 'cda';

/** What is kept per token and environment: the answer, and the stamp. */
export type Kept = { found: Authenticated; lastAccessAt: Date | null };

/**
 * The caller behind a bearer token, or null when the token is unknown or not for `api`,
 * with the environment the request names (`environmentId`, else the primary; null when
 * there is none such) and that environment's schema and records versions (which the
 * schema and record caches key on): all in one round trip, the one every request makes.
 * Its rights are its role's final permissions, inherited ones included.
 *
 * On PostgreSQL it is read on every request: a deleted or regenerated token and a changed
 * role take effect on the very next request, in every process sharing the database. A
 * request whose change checks the access version in its own transaction (`mayAssume`)
 * takes the last answer this process read instead, marked `assumed` (assumed-access.ts).
 * Embedded, one process owns the database and is told of every committed change to what
 * this reads before the change's statement returns (caches/caches.ts): the answer
 * is kept until then, and a request needs no statement for it.
 */
export async function authenticate(
  db: Db,
  token: string,
  environmentId: string | null,
  api: TokenApi = 'cma',
  mayAssume = false,
): Promise<Authenticated | null> {
  const hash = presentedTokenHash(token);
  const key = `${api}/${hash}/${environmentId ?? ''}`;
  const cache = authCacheOf<Kept>(db);
  const remembered = !cache && mayAssume ? rememberedAnswer(db, key) : undefined;
  const kept =
    remembered ??
    (cache
      ? await keptAuthentication(db, cache, key, hash, environmentId, api)
      : await freshAuthentication(db, key, hash, environmentId, api));
  if (!kept) return null;
  // The token's last_cma_access_at says when it last reached the CMA: delivery reads are not it.
  if (api === 'cma' && cmaAccessDue(kept.lastAccessAt)) {
    await recordCmaAccess(db, kept.found.actor.token.id);
    // The stamp is now, or was set by a concurrent request moments ago.
    kept.lastAccessAt = new Date();
  }
  return remembered ? { ...kept.found, assumed: true } : kept.found;
}

/** Embedded: the answer kept until a committed change to what it says is announced. */
async function keptAuthentication(
  db: Db,
  cache: AuthCache<Kept>,
  key: string,
  hash: string,
  environmentId: string | null,
  api: TokenApi,
): Promise<Kept | null> {
  const generation = cache.begin();
  let kept = cache.get(key);
  if (!kept) {
    const read = await readAuthentication(db, hash, environmentId, api);
    if (!read) return null;
    // Frozen when kept: the one process then hands the same answer to every request.
    deepFreeze(read.found);
    cache.keep(key, read, generation);
    kept = read;
  }
  return atAnnouncedVersions(cache, key, kept, generation);
}

/**
 * PostgreSQL: the answer read now, remembered for a request whose change checks the
 * access version itself and may take the last answer read instead (assumed-access.ts).
 */
async function freshAuthentication(
  db: Db,
  key: string,
  hash: string,
  environmentId: string | null,
  api: TokenApi,
): Promise<Kept | null> {
  const read = await readAuthentication(db, hash, environmentId, api);
  // Only writes to the CMA take an answer read earlier.
  if (api !== 'cma') return read;
  if (read) rememberAnswer(db, key, read);
  else forgetAnswer(db, key);
  return read;
}

/**
 * The kept answer with its environment's schema and records versions as last announced:
 * a schema change or record write since it was kept moved only those
 * (AuthCache.versionMoved). The updated answer replaces the kept one, unless anything was
 * dropped since `generation`.
 */
function atAnnouncedVersions(
  cache: AuthCache<Kept>,
  key: string,
  kept: Kept,
  generation: number,
): Kept {
  const environment = kept.found.environment;
  if (!environment) return kept;
  const schema = cache.currentVersion('schema', environment.number, environment.schema_version);
  const records = cache.currentVersion('records', environment.number, environment.records_version);
  if (schema === environment.schema_version && records === environment.records_version) {
    return kept;
  }
  const moved: Kept = {
    found: deepFreeze({
      ...kept.found,
      environment: { ...environment, schema_version: schema, records_version: records },
    }),
    lastAccessAt: kept.lastAccessAt,
  };
  cache.keep(key, moved, generation);
  return moved;
}

/** The token's row joined to its role and to the environment `join` picks. */
function authenticationQuery(
  db: Db,
  tokenHash: string,
  environment: (join: JoinBuilder<AuthTables, 'e'>) => JoinBuilder<AuthTables, 'e'>,
) {
  return db
    .selectFrom('access_tokens')
    .innerJoin('roles', 'roles.id', 'access_tokens.role_id')
    .leftJoin('environments as e', environment)
    .select([
      'access_tokens.id as tokenId',
      'access_tokens.name',
      'access_tokens.last_cma_access_at',
      'access_tokens.hardcoded_type',
      'can_access_cma',
      'can_access_cda',
      'can_access_cda_preview',
      'roles.id as roleId',
      // As text: permissions are derived once per distinct text (ownPermissions).
      sql<string>`roles.attributes::text`.as('attributes_text'),
      'roles.inherits_permissions_from',
      'e.id as environmentId',
      'e.number',
      'e.schema_name',
      'e.is_primary',
      'e.status',
      'e.schema_version',
      // The sum of the environment's records-version slots (project migration 0016),
      // written out rather than through fieldhouse_records_version(): PostgreSQL plans a
      // SQL function's body on every call, 0.1 ms of each request's one statement.
      sql<string | null>`(
        SELECT coalesce(sum(v.version), 0) FROM environment_records_versions AS v
        WHERE v.schema_name = e.schema_name
      )::text`.as('records_version'),
      sql<string>`(SELECT a.version FROM access_version AS a)::text`.as('access_version'),
    ])
    .where('token_hash', '=', tokenHash);
}

type AuthTables = ProjectDatabase & { e: ProjectDatabase['environments'] };

// Built and compiled once each (preparedShape): the statement every request may run.
const withPrimary = preparedShape((db: Db, tokenHash: string) =>
  authenticationQuery(db, tokenHash, (join) => join.on('e.is_primary', '=', true)),
);
const withEnvironment = preparedShape((db: Db, tokenHash: string, environmentId: string) =>
  authenticationQuery(db, tokenHash, (join) => join.on('e.id', '=', environmentId)),
);

async function readAuthentication(
  db: Db,
  tokenHash: string,
  environmentId: string | null,
  api: TokenApi,
): Promise<Kept | null> {
  const [row] = await (environmentId === null
    ? withPrimary(db, tokenHash)
    : withEnvironment(db, tokenHash, environmentId));
  if (!row) return null;
  const admitted =
    api === 'cma' ? row.can_access_cma : row.can_access_cda || row.can_access_cda_preview;
  if (!admitted) return null;
  // Most roles inherit nothing: then the joined row holds all their permissions.
  const permissions =
    row.inherits_permissions_from.length === 0
      ? ownPermissions(row.attributes_text)
      : finalPermissions(row.roleId, await loadRoleChain(db, row.roleId));
  const actor = actorFromRole(
    {
      id: row.tokenId,
      name: row.name,
      can_access_cda: row.can_access_cda,
      can_access_cda_preview: row.can_access_cda_preview,
      can_access_cma: row.can_access_cma,
      hardcoded_type: row.hardcoded_type,
      role_id: row.roleId,
    },
    permissions,
  );
  const environment =
    row.environmentId === null ||
    row.number === null ||
    row.schema_name === null ||
    row.is_primary === null ||
    row.status === null ||
    row.schema_version === null ||
    row.records_version === null
      ? null
      : {
          id: row.environmentId,
          number: row.number,
          schema_name: row.schema_name,
          is_primary: row.is_primary,
          status: row.status,
          schema_version: row.schema_version,
          records_version: row.records_version,
        };
  return {
    found: { actor, environment, accessVersion: row.access_version },
    lastAccessAt: row.last_cma_access_at,
  };
}
