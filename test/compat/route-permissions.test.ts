import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Permission } from '../../src/domain/actor.ts';
import { ROLE_FLAGS } from '../../src/domain/auth/role-attributes.ts';
import type { ItemAction } from '../../src/domain/items/access/permission-entries.ts';
import { errorCodesOf } from '../support/api-errors.ts';
import { appRoutes } from '../support/app-routes.ts';
import { itemPermission, tokenWithFlags, tokenWithRole } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

// One table-driven walk over every registered route: a new route is covered the moment
// it is registered, and a write route registered without a permission fails here.

type Route = {
  key: string;
  method: string;
  url: string;
  permission?: Permission;
  /** The record action the role's item-type permissions must grant. */
  itemAction?: ItemAction;
  /** The upload action the role's upload permissions must grant. */
  uploadAction?: string | readonly string[];
  /** The JSON:API type the request document must carry. */
  resourceType?: string;
};

/** Public write routes, each with why it needs no token. */
const PUBLIC_WRITES: Record<string, string> = {
  'PUT /_uploads/*': 'the upload URL carries its own signed, expiring credential',
};

/** The Content Delivery API's POSTs are GraphQL reads that authenticate CDA tokens themselves. */
const isGraphqlRead = (key: string) => key.startsWith('POST /graphql');

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Write routes deliberately registered without a route permission, each with why. */
const OPEN_WRITES: Record<string, string> = {
  'PUT /site':
    'each setting sent needs its own flag (can_edit_site, can_edit_environment, ' +
    'can_edit_favicon), so the site service checks them per attribute',
};

/**
 * Reads gated behind a flag; every other read needs only CMA access. Roles
 * need can_manage_users ("create and edit roles"): a role tells what its tokens may do.
 * API tokens need can_manage_access_tokens, as DatoCMS shows token secrets only to
 * roles with it. Webhooks and their calls need can_manage_webhooks (they
 * carry receiver URLs, headers and payloads).
 */
const GATED_READS: Record<string, Permission> = {
  'GET /roles': 'can_manage_users',
  'GET /roles/:id': 'can_manage_users',
  'GET /access_tokens': 'can_manage_access_tokens',
  'GET /access_tokens/:id': 'can_manage_access_tokens',
  'GET /webhooks': 'can_manage_webhooks',
  'GET /webhooks/:id': 'can_manage_webhooks',
  'GET /webhook_calls': 'can_manage_webhooks',
  'GET /webhook_calls/:id': 'can_manage_webhooks',
};

/** The app's routes, by method and URL, and the keys of the public ones. */
async function registeredRoutes(): Promise<{ routes: Route[]; publicKeys: string[] }> {
  const collected = await appRoutes();
  const routes: Route[] = [];
  const publicKeys: string[] = [];
  for (const route of collected) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS')) {
      const key = `${method} ${route.url}`;
      if (route.config?.public) publicKeys.push(key);
      else
        routes.push({
          key,
          method,
          url: route.url,
          permission: route.config?.permission,
          itemAction: route.config?.itemAction,
          uploadAction: route.config?.uploadAction,
          resourceType: route.config?.resourceType,
        });
    }
  }
  return { routes, publicKeys };
}

const { routes, publicKeys } = await registeredRoutes();
const writes = routes.filter((route) => WRITE_METHODS.has(route.method));
const reads = routes.filter((route) => route.method === 'GET');
const guarded = routes.filter((route) => route.permission !== undefined);
const recordRoutes = routes.filter((route) => route.itemAction !== undefined);

const server = useTestServer();

/**
 * A well-formed request to the route: ids that look real (or `pathId`), a document of the
 * route's type (an environment document names a new environment id).
 */
async function call(route: Route, token: string, environment?: string, pathId = '999999') {
  const path = route.url.replace(/:[^/]+/g, pathId);
  const document =
    route.resourceType === 'environment'
      ? { type: 'environment', id: 'walk-target' }
      : { type: route.resourceType ?? 'unknown', attributes: {} };
  const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? { data: document } : undefined;
  return server.request(route.method, path, body, {
    authorization: `Bearer ${token}`,
    ...(environment ? { 'x-environment': environment } : {}),
  });
}

describe('the route table', () => {
  test('is not empty and every route is either public or authenticated', () => {
    assert.ok(writes.length > 20, `only ${writes.length} write routes collected`);
    for (const key of publicKeys) {
      if (key in PUBLIC_WRITES || isGraphqlRead(key)) continue;
      assert.match(key, /^GET /, `${key}: public routes only read`);
    }
  });

  test('every write route names a permission or a record action, except the listed open ones', () => {
    for (const route of writes) {
      if (route.key in OPEN_WRITES) continue;
      if (route.itemAction || route.uploadAction) {
        assert.equal(route.permission, undefined, `${route.key}: an entry action and a flag`);
        continue;
      }
      assert.ok(route.permission, `${route.key} is registered without config.permission`);
      assert.ok(
        (ROLE_FLAGS as readonly string[]).includes(route.permission),
        `${route.key}: ${route.permission} is not a role flag`,
      );
    }
    for (const key of Object.keys(OPEN_WRITES)) {
      const route = writes.find((candidate) => candidate.key === key);
      assert.ok(route, `${key} is listed as open but not registered`);
      assert.equal(route.permission, undefined, `${key} is listed as open but names a permission`);
    }
  });

  test('reads need only CMA access, except the listed gated ones', () => {
    for (const route of reads) {
      assert.equal(route.permission, GATED_READS[route.key], `${route.key}`);
    }
    for (const key of Object.keys(GATED_READS)) {
      assert.ok(
        reads.some((route) => route.key === key),
        `${key} is listed as gated but not registered`,
      );
    }
  });
});

describe('each guarded route refuses a role without its permission', () => {
  for (const route of guarded) {
    const permission = route.permission as Permission;
    test(`${route.key} needs ${permission}`, async () => {
      const lacking = await tokenWithFlags(
        server.db,
        ROLE_FLAGS.filter((flag) => flag !== permission),
      );
      const refused = await call(route, lacking);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.deepEqual(errorCodesOf(refused.body), ['INSUFFICIENT_PERMISSIONS']);
      assert.match(JSON.stringify(refused.body), new RegExp(permission));

      const holding = await tokenWithFlags(server.db, [permission]);
      const allowed = await call(route, holding);
      assert.notEqual(allowed.status, 403, `the flag alone: ${JSON.stringify(allowed.body)}`);
      const asAdmin = await call(route, server.adminToken);
      assert.notEqual(asAdmin.status, 403, `the Admin token: ${JSON.stringify(asAdmin.body)}`);
    });
  }
});

describe('each record route refuses a role without its item-type permission', () => {
  test('every record write and record read is walked', () => {
    const keys = recordRoutes.map((route) => route.key);
    for (const key of [
      'POST /items',
      'PUT /items/:id',
      'POST /items/bulk/destroy',
      'POST /items/bulk/move-to-stage',
      'GET /items/:id',
      'POST /items/:id/scheduled-publication',
      'DELETE /items/:id/scheduled-publication',
      'POST /items/:id/scheduled-unpublishing',
      'DELETE /items/:id/scheduled-unpublishing',
      'GET /items/:id/current-vs-published-state',
    ])
      assert.ok(keys.includes(key), `${key} names no record action`);
  });

  for (const route of recordRoutes) {
    const action = route.itemAction as ItemAction;
    test(`${route.key} needs the "${action}" item-type permission`, async () => {
      const everyFlag = Object.fromEntries(ROLE_FLAGS.map((flag) => [flag, true]));
      const lacking = await tokenWithRole(server.db, {
        ...everyFlag,
        // Every other action, on every model: only this one is missing.
        positive_item_type_permissions: (
          ['read', 'create', 'update', 'delete', 'publish', 'duplicate', 'move_to_stage'] as const
        )
          .filter((other) => other !== action)
          .map((other) => itemPermission(other)),
      });
      const refused = await call(route, lacking.token);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.deepEqual(errorCodesOf(refused.body), ['INSUFFICIENT_PERMISSIONS']);
      assert.ok(JSON.stringify(refused.body).includes(`\\"${action}\\"`), 'names the action');

      const negated = await tokenWithRole(server.db, {
        positive_item_type_permissions: [itemPermission('all')],
        negative_item_type_permissions: [itemPermission(action)],
      });
      assert.equal((await call(route, negated.token)).status, 403, 'positive minus negative');

      const holding = await tokenWithRole(server.db, {
        positive_item_type_permissions: [itemPermission(action)],
      });
      const allowed = await call(route, holding.token);
      assert.notEqual(allowed.status, 403, `the action alone: ${JSON.stringify(allowed.body)}`);
      const asAdmin = await call(route, server.adminToken);
      assert.notEqual(asAdmin.status, 403, `the Admin token: ${JSON.stringify(asAdmin.body)}`);
    });
  }

  test('a permission on another environment grants nothing here', async () => {
    const elsewhere = await tokenWithRole(server.db, {
      positive_item_type_permissions: [itemPermission('all', { environment: 'elsewhere' })],
    });
    for (const route of recordRoutes) {
      const refused = await call(route, elsewhere.token);
      assert.equal(refused.status, 403, `${route.key}: ${JSON.stringify(refused.body)}`);
    }
  });

  test('a primary_only token is refused on a sandbox, on every record route', async () => {
    const sandbox = `perm-sandbox-${Date.now().toString(36)}`;
    await server.client().environments.fork('main', { id: sandbox });
    const primaryOnly = await tokenWithRole(server.db, {
      environments_access: 'primary_only',
      positive_item_type_permissions: [
        itemPermission('all'),
        itemPermission('all', { environment: sandbox }),
      ],
    });
    for (const route of [...recordRoutes, ...routes.filter((r) => r.key === 'GET /items')]) {
      const refused = await call(route, primaryOnly.token, sandbox);
      assert.equal(refused.status, 403, `${route.key}: ${JSON.stringify(refused.body)}`);
      assert.deepEqual(errorCodesOf(refused.body), ['INSUFFICIENT_PERMISSIONS']);
      const onPrimary = await call(route, primaryOnly.token);
      assert.notEqual(onPrimary.status, 403, `${route.key} on the primary`);
    }
  });
});

describe('each upload route refuses a role without its upload permission', () => {
  const uploadActions = [
    'read',
    'create',
    'update',
    'delete',
    'replace_asset',
    'edit_creator',
    'move',
  ];
  const entry = (action: string) => ({
    action,
    environment: 'main',
    on_creator: 'anyone',
    localization_scope: 'all',
  });
  for (const route of routes.filter((candidate) => candidate.uploadAction !== undefined)) {
    // A route whose body says which action it takes needs any one of its actions.
    const actions = ([] as string[]).concat(route.uploadAction ?? []);
    const action = actions[0] as string;
    test(`${route.key} needs the "${actions.join('" or "')}" upload permission`, async () => {
      const everyFlag = Object.fromEntries(ROLE_FLAGS.map((flag) => [flag, true]));
      const lacking = await tokenWithRole(server.db, {
        ...everyFlag,
        positive_upload_permissions: uploadActions.filter((o) => !actions.includes(o)).map(entry),
      });
      const refused = await call(route, lacking.token);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.deepEqual(errorCodesOf(refused.body), ['INSUFFICIENT_PERMISSIONS']);
      const holding = await tokenWithRole(server.db, {
        positive_upload_permissions: [entry(action)],
      });
      const allowed = await call(route, holding.token);
      assert.notEqual(allowed.status, 403, JSON.stringify(allowed.body));
    });
  }
});

describe('ungated reads need no flag', () => {
  for (const route of reads.filter(
    (candidate) =>
      candidate.permission === undefined &&
      candidate.itemAction === undefined &&
      candidate.uploadAction === undefined,
  )) {
    test(`${route.key} answers a token with no flag`, async () => {
      const bare = await tokenWithFlags(server.db, []);
      const response = await call(route, bare);
      assert.notEqual(response.status, 403, JSON.stringify(response.body));
      assert.notEqual(response.status, 401, JSON.stringify(response.body));
    });
  }
});

/**
 * Environment write routes judge the role's environments_access on the environment they
 * act on, not only on X-Environment: the one the path names (and a fork's new sandbox, a
 * promote's current primary), or the primary for those that act on it without naming it.
 */
const ACTS_ON_PRIMARY = ['PUT /maintenance-mode/activate', 'PUT /maintenance-mode/deactivate'];
const ENVIRONMENT_FLAGS: readonly (Permission | undefined)[] = [
  'can_manage_environments',
  'can_promote_environments',
];
const namingEnvironment = writes.filter((route) => route.url.startsWith('/environments/:'));
const actingOnPrimary = writes.filter((route) => ACTS_ON_PRIMARY.includes(route.key));

describe('each environment route judges the environment it acts on', () => {
  const everyFlag = Object.fromEntries(ROLE_FLAGS.map((flag) => [flag, true]));

  test('every write under an environment flag names its environment or is listed as acting on the primary', () => {
    assert.ok(namingEnvironment.length >= 4, `only ${namingEnvironment.length} routes collected`);
    for (const route of writes.filter((candidate) =>
      ENVIRONMENT_FLAGS.includes(candidate.permission),
    )) {
      assert.ok(
        namingEnvironment.includes(route) || actingOnPrimary.includes(route),
        `${route.key} takes no environment in its path and is not listed as acting on the primary`,
      );
    }
    assert.equal(
      actingOnPrimary.length,
      ACTS_ON_PRIMARY.length,
      'a listed route is not registered',
    );
  });

  /** All an environment route may change. */
  async function environmentsState() {
    const client = server.client();
    const environments = await client.environments.list();
    return {
      environments: environments.map(({ id, meta }) => ({ id, ...meta })),
      maintenance: (await client.maintenanceMode.find()).active,
    };
  }

  test('a sandbox_only role is refused each one on the primary, and nothing changes', async () => {
    const sandbox = `walk-sandbox-${Date.now().toString(36)}`;
    await server.client().environments.fork('main', { id: sandbox });
    const { token } = await tokenWithRole(server.db, {
      ...everyFlag,
      environments_access: 'sandbox_only',
    });
    const before = await environmentsState();
    for (const route of [...namingEnvironment, ...actingOnPrimary]) {
      const refused = await call(route, token, sandbox, 'main');
      assert.equal(refused.status, 403, `${route.key}: ${JSON.stringify(refused.body)}`);
      assert.deepEqual(errorCodesOf(refused.body), ['INSUFFICIENT_PERMISSIONS']);
      assert.match(JSON.stringify(refused.body), /cannot access environment \\"main\\"/);
    }
    assert.deepEqual(await environmentsState(), before);
    await server.client().environments.destroy(sandbox);
  });

  test('a primary_only role is refused each one naming a sandbox, and nothing changes', async () => {
    const sandbox = `walk-sandbox-${Date.now().toString(36)}`;
    await server.client().environments.fork('main', { id: sandbox });
    const { token } = await tokenWithRole(server.db, {
      ...everyFlag,
      environments_access: 'primary_only',
    });
    const before = await environmentsState();
    for (const route of namingEnvironment) {
      const refused = await call(route, token, undefined, sandbox);
      assert.equal(refused.status, 403, `${route.key}: ${JSON.stringify(refused.body)}`);
      assert.deepEqual(errorCodesOf(refused.body), ['INSUFFICIENT_PERMISSIONS']);
      assert.match(JSON.stringify(refused.body), new RegExp(`environment \\\\"${sandbox}\\\\"`));
    }
    assert.deepEqual(await environmentsState(), before);
    await server.client().environments.destroy(sandbox);
  });
});
