// Fieldhouse as the schema workload's API: a real `fieldhouse serve` process, started as
// installed, called through the official client.
import { buildClient, type Client } from '@datocms/cma-client-node';
import type { TestDatabase } from '../test/support/databases.ts';
import { runFieldhouse } from '../test/support/process.ts';
import type { SchemaApi } from './schema-workload-phases.ts';
import { serverEnv } from './support.ts';

export type RunningFieldhouse = { client: Client; pid: number; stop(): Promise<void> };

/** `fieldhouse serve` on the database, as the executable runs (its shebang holds node's flags). */
export async function startFieldhouse(
  database: TestDatabase,
  token: string,
): Promise<RunningFieldhouse> {
  const server = runFieldhouse(
    ['serve'],
    {
      ...serverEnv(database),
      FIELDHOUSE_ADMIN_TOKEN: token,
      FIELDHOUSE_WEBHOOK_ALLOW: '127.0.0.1/32',
      LOG_LEVEL: 'info',
    },
    ['bin/fieldhouse.js'],
  );
  const baseUrl = (await server.listening).replace('[::1]', '127.0.0.1');
  return {
    client: buildClient({ apiToken: token, baseUrl, autoRetry: false }),
    pid: server.child.pid ?? 0,
    stop: () => server.stop(),
  };
}

/** The workload's calls as a DatoCMS migration script makes them. */
export function fieldhouseSchemaApi(client: Client): SchemaApi {
  return {
    createModel: async (m) =>
      (await client.itemTypes.create({ name: `Model ${m}`, api_key: `model${m}` })).id,
    createField: async (modelId, f, fieldType) => {
      const body = { label: `Field ${f}`, api_key: `field${f}`, field_type: fieldType };
      // One cast: the client types each field type's body separately.
      return (
        await client.fields.create(modelId, body as Parameters<Client['fields']['create']>[1])
      ).id;
    },
    updateField: (id, i) => client.fields.update(id, { hint: `updated ${i}` }),
    updateModel: (id, i) => client.itemTypes.update(id, { hint: `updated ${i}` }),
    createHook: async (w, url) =>
      (
        await client.webhooks.create({
          name: `Webhook ${w}`,
          url,
          custom_payload: null,
          headers: {},
          events: [{ entity_type: 'item_type', event_types: ['update'] }],
          http_basic_user: null,
          http_basic_password: null,
        })
      ).id,
    updateHook: (id, i) => client.webhooks.update(id, { headers: { 'X-Revision': String(i) } }),
    listModels: () => client.itemTypes.list(),
    listFields: (modelId) => client.fields.list(modelId),
  };
}
