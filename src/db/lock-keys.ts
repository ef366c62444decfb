/**
 * Every PostgreSQL advisory lock Fieldhouse takes, by key. The keys are arbitrary
 * constants in one range (7_246_xxx) so they cannot collide with each other; another
 * application sharing the database would have to avoid the range. All are transaction
 * locks (`pg_advisory_xact_lock`) unless said otherwise: they end with COMMIT or ROLLBACK.
 * On the embedded engine there is one session, so they never wait, but they are taken all
 * the same (the code is the same on both engines).
 */

/**
 * Creating the project on an empty database (site, primary environment, admin role and
 * token): several processes may start at once on one PostgreSQL, and exactly one creates it.
 */
export const BOOTSTRAP_LOCK_KEY = 7_246_000;

/**
 * One environment, in the two-key form `(ENVIRONMENT_LOCK_KEY, environments.number)`:
 * every change in the environment holds it (the SQL function `enter_environment` takes
 * it, project migrations 0008 and 0009), so its changes run one at a time. A PostgreSQL
 * fork holds the new environment's as a session lock until its copy is ready; recovery at
 * start tries it (`pg_try_advisory_xact_lock`) to tell an interrupted fork from a running
 * one. Its value is defined beside the code that takes it (`environment-locks.ts`).
 */
export { ENVIRONMENT_LOCK_KEY } from './environment-locks.ts';

/**
 * The project's environment operations (fork registration, promote, rename, destroy):
 * they touch several environment rows at once, so they run one at a time.
 */
export const ENVIRONMENTS_LOCK_KEY = 7_246_002;

/**
 * Roles and API tokens: their writes (and a role's environment access) run one at a time,
 * so the inheritance-cycle and in-use checks cannot race (`inherits_permissions_from` is
 * jsonb, so no foreign key guards it).
 */
export const AUTH_LOCK_KEY = 7_246_010;

/**
 * Webhook creates: the count of webhooks read under it (the plan's limit) cannot race
 * with another create.
 */
export const WEBHOOK_CREATE_LOCK_KEY = 7_246_020;

/**
 * Value index builds, a session lock tried (`pg_try_advisory_lock`) around a PostgreSQL
 * build: a concurrent build waits for every older snapshot in the database, so two builds
 * at once (on any tables) can deadlock, each waiting for the other; a build that finds
 * another running gives way instead (`domain/items/query/value-index-builds.ts`).
 */
export const VALUE_INDEX_BUILD_LOCK_KEY = 7_246_030;
