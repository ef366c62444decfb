import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import fc from 'fast-check';
import { sql } from 'kysely';
import { ENVIRONMENT_TABLES } from '../../src/db/environment-scope.ts';
import {
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  buildWebhook,
  itemTypeRef,
} from '../support/factories.ts';
import { hostileRecordRequest, type RecordSchema } from '../support/hostile-records.ts';
import { type HostileRequest, hostileRequest, type Route } from '../support/hostile-requests.ts';
import { type SuiteServer, useTestServer } from '../support/server.ts';

// Issue 13, item 4: hostile requests to every registered route. Whatever comes in, the
// answer is never a 5xx, every error is an api_error document, and a refused request
// changes nothing and emits no event. Reproduce a failure with the seed printed below:
// FIELDHOUSE_FUZZ_SEED=<seed> npx tsx scripts/test.ts embedded -- test/integration/fuzz.test.ts

const SEED = Number(process.env.FIELDHOUSE_FUZZ_SEED ?? 13_004);
// Bounded for CI: about a minute per engine on a loaded 2-core machine.
const RUNS = Number(process.env.FIELDHOUSE_FUZZ_RUNS ?? 1200);

const server = useTestServer();

/** Seeded resources' ids by the first segment of the paths that address them. */
const seeded: Record<string, string[]> = {};

before(async () => {
  const client = server.client();
  const itemType = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  const fieldset = await client.fieldsets.create(itemType.id, { title: 'Main' });
  const field = await client.fields.create(itemType.id, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
  });
  const menuItem = await client.menuItems.create({ label: 'Articles' });
  const [schemaMenuItem] = await client.schemaMenuItems.list();
  const role = await client.roles.create({ name: 'Fuzzed', environments_access: 'all' });
  const token = await client.accessTokens.create({
    name: 'Fuzzed',
    can_access_cda: true,
    can_access_cda_preview: false,
    can_access_cma: true,
    role: { type: 'role', id: role.id },
  });
  const webhook = await buildWebhook(client, { name: 'Fuzzed' });
  const workflow = await client.workflows.create({
    name: 'Fuzzed',
    api_key: 'fuzzed',
    stages: [{ id: 'draft', name: 'Draft', initial: true }],
  });
  Object.assign(seeded, {
    'item-types': [itemType.id],
    fields: [field.id],
    fieldsets: [fieldset.id],
    'menu-items': [menuItem.id],
    'schema-menu-items': schemaMenuItem ? [schemaMenuItem.id] : [],
    roles: [role.id],
    access_tokens: [token.id],
    webhooks: [webhook.id],
    workflows: [workflow.id],
    environments: ['main'],
  });
});

type Answer = { status: number; contentType: string; text: string };

/** Sends the request's bytes as they are: no client library normalises them. */
function send(request: HostileRequest, target: SuiteServer = server): Promise<Answer> {
  const url = new URL(target.baseUrl);
  const headers: Record<string, string> = {};
  const merged: Record<string, string | null> = {
    authorization: `Bearer ${target.adminToken}`,
    accept: 'application/json',
    'content-type': 'application/json',
    'x-api-version': '3',
    ...request.headers,
  };
  for (const [name, value] of Object.entries(merged)) if (value !== null) headers[name] = value;
  // Node's client frames a DELETE body only when told its length; unframed, the server
  // would rightly read the body as the next request on the connection.
  if (request.body !== undefined)
    headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** Why an answer is not an api_error document, or null if it is one. */
function notAnApiErrorType(answer: Answer): string | null {
  return answer.contentType.startsWith('application/json')
    ? null
    : `Content-Type ${answer.contentType}`;
}

function notAnApiError(answer: Answer): string | null {
  const wrongType = notAnApiErrorType(answer);
  if (wrongType) return wrongType;
  try {
    const document = JSON.parse(answer.text) as { data?: unknown };
    const entries = document.data;
    if (!Array.isArray(entries) || entries.length === 0) return 'no data array';
    const wrong = entries.find(
      (entry) =>
        entry?.type !== 'api_error' ||
        typeof entry?.attributes?.code !== 'string' ||
        typeof entry?.attributes?.details !== 'object',
    );
    return wrong ? `entry ${JSON.stringify(wrong)}` : null;
  } catch {
    return 'body is not JSON';
  }
}

async function getJson(path: string): Promise<unknown> {
  const answer = await send({
    method: 'GET',
    path,
    headers: {},
    body: undefined,
    route: path,
    validId: false,
  });
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  return JSON.parse(answer.text);
}

/**
 * Every row a request could write, as one digest per table: stricter than reading the
 * schema back through the API (hidden columns count too) and one query instead of seven,
 * which is what lets a check follow every refused write within the time budget. Left
 * out: a token's last access, which any authenticated request may stamp (once a minute).
 * The append-only tables (the outbox `events`, `jobs`) are counted: a refused request
 * adds no row to them, and counting is what keeps the embedded run within budget.
 */
const DIGESTED_PROJECT_TABLES = ['site', 'environments', 'roles', 'access_tokens', 'webhooks'];
const COUNTED_TABLES = ['events', 'jobs'];

function digest(table: string, label: string): string {
  return `(SELECT count(*) || ':' || coalesce(md5(string_agg(r.row, '|' ORDER BY r.row)), '') FROM (SELECT (to_jsonb(t) - 'last_cma_access_at')::text AS row FROM ${table} t) r) AS "${label}"`;
}

/** Every environment's tables are digested too: a fuzzed fork or promote moves them. */
async function snapshot(target: SuiteServer = server): Promise<string> {
  const environments = await target.db
    .selectFrom('environments')
    .select(['id', 'schema_name'])
    .orderBy('number')
    .execute();
  const columns = [
    ...DIGESTED_PROJECT_TABLES.map((table) => digest(table, table)),
    ...environments.flatMap((environment) =>
      ENVIRONMENT_TABLES.map((table) =>
        digest(`"${environment.schema_name}".${table}`, `${environment.id}.${table}`),
      ),
    ),
    ...COUNTED_TABLES.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`),
  ];
  const result = await sql.raw(`SELECT ${columns.join(', ')}`).execute(target.db);
  return JSON.stringify(result.rows[0]);
}

async function registeredRoutes(): Promise<Route[]> {
  // Bodies refer to shared pieces (`#/components/schemas/…`): read them resolved.
  const document = (await SwaggerParser.dereference(
    (await getJson('/openapi.json')) as never,
  )) as unknown as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
    >;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      body: (operation.requestBody?.content['application/json']?.schema ?? null) as Route['body'],
    })),
  );
}

/** Reads and edits may address a seeded resource; deletes and actions get hostile ids only. */
function mayUseValidId(route: Route): boolean {
  if (route.method === 'GET' || route.method === 'PUT') return true;
  return (
    route.method === 'POST' &&
    /^\/item-types\/\{id\}\/(fields|fieldsets|reorder-fields-and-fieldsets)$/.test(route.path)
  );
}

test(`hostile requests to every route: no 5xx, only api_errors, refusals change nothing (seed ${SEED})`, async (t) => {
  const routes = await registeredRoutes();
  assert.ok(routes.length >= 60, `${routes.length} routes`);
  const allIds = Object.values(seeded).flat();
  const requestArbitrary = fc.constantFrom(...routes).chain((route) => {
    const collection = route.path.split('/')[1] ?? '';
    const ids = route.path.includes('{id}') ? (seeded[collection] ?? []) : allIds;
    return hostileRequest(route, route.path.includes('{id}') ? ids : allIds, mayUseValidId(route));
  });

  const counts = {
    requests: 0,
    refused: 0,
    accepted: 0,
    serverErrors: 0,
    notApiError: 0,
    partialWrites: 0,
  };
  const statuses = new Map<number, number>();
  const routesHit = new Set<string>();
  let current = await snapshot();
  const started = Date.now();

  await fc.assert(
    fc.asyncProperty(requestArbitrary, async (request) => {
      const answer = await send(request);
      counts.requests += 1;
      routesHit.add(`${request.method} ${request.route}`);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const where = `${request.method} ${request.path.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
      if (answer.status >= 500) counts.serverErrors += 1;
      assert.ok(answer.status < 500, where);
      // A GET never writes: snapshots only around other methods keep the run within budget.
      if (answer.status < 400) {
        counts.accepted += 1;
        if (request.method !== 'GET') current = await snapshot();
        return;
      }
      counts.refused += 1;
      // A HEAD answer has no body by definition (RFC 9110): its headers are all there is.
      const problem =
        request.method === 'HEAD' && answer.text === ''
          ? notAnApiErrorType(answer)
          : notAnApiError(answer);
      if (problem) counts.notApiError += 1;
      assert.equal(problem, null, where);
      if (request.method === 'GET') return;
      const after = await snapshot();
      if (after !== current) counts.partialWrites += 1;
      assert.deepEqual(
        JSON.parse(after),
        JSON.parse(current),
        `a refused request changed: ${where}`,
      );
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );

  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  const summary = `fuzz seed=${SEED} routes=${routesHit.size}/${routes.length} requests=${counts.requests} refused=${counts.refused} accepted=${counts.accepted} 5xx=${counts.serverErrors} non-api_error=${counts.notApiError} partial-writes=${counts.partialWrites} statuses=${byStatus.join(',')} ${Date.now() - started}ms`;
  t.diagnostic(summary);
  console.log(summary);
  assert.equal(counts.requests, RUNS);
});

/**
 * A schema for the record fuzz: blocks in blocks, structured text, links, a tree, a
 * workflow. On a server of its own: the fuzz of every route leaves its server in any
 * state (maintenance mode on, other locales, a renamed primary).
 */
async function seedRecordSchema(target: SuiteServer): Promise<RecordSchema> {
  const client = target.client();
  const node = await buildBlockModel(client);
  await buildModularContentField(client, {
    itemTypeId: node.id,
    api_key: 'inner',
    blockIds: [node.id],
  });
  const stage = 'review';
  const workflow = await client.workflows.create({
    name: 'Record fuzz',
    api_key: 'record_fuzz',
    stages: [
      { id: 'draft', name: 'Draft', initial: true },
      { id: stage, name: 'Review' },
    ],
  });
  const model = await buildModel(client, {
    sortable: true,
    draft_mode_active: true,
    workflow: { type: 'workflow', id: workflow.id },
  });
  await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  await buildField(client, { itemTypeId: model.id, api_key: 'views', field_type: 'integer' });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'related',
    field_type: 'links',
    validators: { items_item_type: { item_types: [model.id] } },
  });
  await buildModularContentField(client, {
    itemTypeId: model.id,
    api_key: 'sections',
    blockIds: [node.id],
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'body',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [node.id] },
      structured_text_inline_blocks: { item_types: [node.id] },
      structured_text_links: { item_types: [model.id] },
    },
  });
  const tree = await buildModel(client, { tree: true });
  await buildField(client, { itemTypeId: tree.id, api_key: 'title' });
  const recordIds: string[] = [];
  for (const title of ['one', 'two', 'three', 'four'])
    recordIds.push(
      (await client.items.create({ item_type: itemTypeRef(model.id), title } as never)).id,
    );
  const treeIds: string[] = [];
  for (const title of ['root', 'leaf'])
    treeIds.push(
      (
        await client.items.create({
          item_type: itemTypeRef(tree.id),
          title,
          ...(treeIds[0] ? { parent_id: treeIds[0] } : {}),
        } as never)
      ).id,
    );
  return { modelId: model.id, treeModelId: tree.id, blockId: node.id, recordIds, treeIds, stage };
}

describe('records', () => {
  const recordServer = useTestServer();

  test(`hostile requests on records, list filters, bulk actions and nesting depth: no 5xx, no partial write (seed ${SEED})`, async (t) => {
    const schema = await seedRecordSchema(recordServer);
    const runs = Math.ceil(RUNS / 3);
    const counts = { requests: 0, accepted: 0, refused: 0 };
    const statuses = new Map<number, number>();
    let current = await snapshot(recordServer);
    await fc.assert(
      fc.asyncProperty(hostileRecordRequest(schema), async (request) => {
        const answer = await send(request, recordServer);
        counts.requests += 1;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const where = `${request.method} ${request.path.slice(0, 200)} ${String(request.body ?? '').slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`;
        assert.ok(answer.status < 500, where);
        if (answer.status < 400) {
          counts.accepted += 1;
          if (request.method !== 'GET') current = await snapshot(recordServer);
          return;
        }
        counts.refused += 1;
        assert.equal(notAnApiError(answer), null, where);
        if (request.method === 'GET') return;
        const after = await snapshot(recordServer);
        assert.deepEqual(
          JSON.parse(after),
          JSON.parse(current),
          `a refused request changed: ${where}`,
        );
      }),
      { seed: SEED, numRuns: runs, endOnFailure: true },
    );
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
    const summary = `record fuzz seed=${SEED} requests=${counts.requests} refused=${counts.refused} accepted=${counts.accepted} statuses=${byStatus.join(',')}`;
    t.diagnostic(summary);
    console.log(summary);
    assert.equal(counts.requests, runs);
    assert.ok(counts.accepted > 0 && counts.refused > 0, summary);
  });
});
