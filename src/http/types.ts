import type { Config } from '../config.ts';
import type { Db, Engine } from '../db/client.ts';
import type { Scope } from '../db/environment-scope.ts';
import type { Actor, Permission } from '../domain/actor.ts';
import type { ItemAction } from '../domain/items/access/permission-entries.ts';
import type { UploadAction } from '../domain/uploads/authorization.ts';

/** What every route plugin receives. */
export type AppDeps = { db: Db; engine: Engine; config: Config };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth plugin on every authenticated route. */
    actor: Actor | null;
    /**
     * The request's environment (`X-Environment`, else the primary) and its database
     * handles: set by the protocol hook on every authenticated route.
     */
    scope: Scope;
  }
  interface FastifyContextConfig {
    /** Role flag the route requires; reads need none. */
    permission?: Permission;
    /**
     * Record action the route performs: the role's item-type permissions must grant it
     * in the request's environment (checked before the body; per record by the route).
     */
    itemAction?: ItemAction;
    /**
     * Upload action the route performs (or any of several, for a route whose body says
     * which): the role's upload permissions must grant it in the request's environment
     * (checked before the body; per upload by the operation).
     */
    uploadAction?: UploadAction | readonly UploadAction[];
    /**
     * The route reaches every environment's content (webhooks and their log are
     * project-wide): the role's `environments_access` must be `all`.
     */
    reachesEveryEnvironment?: boolean;
    /** JSON:API `data.type` the request document must carry. */
    resourceType?: string;
    /** Served without a token (health checks). */
    public?: boolean;
    /** DatoCMS runs this endpoint as a job: answer 202 + job when async jobs are on. */
    asyncJob?: boolean;
    /**
     * The route's one change checks the token's access version in its transaction: on
     * PostgreSQL the request may take the last token answer read instead of reading it
     * (plugins/assumed-token.ts). Only for a handler whose change runs on `request.scope`
     * (whose assumption it confirms: a handler that returns unconfirmed runs again) and
     * that answers once that change has committed (its document returned, or sent after).
     */
    checksTokenInChange?: boolean;
  }
}
