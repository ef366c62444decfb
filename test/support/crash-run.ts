import { buildClient, type Client } from '@datocms/cma-client-node';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/client.ts';
import type { TestDatabase } from './databases.ts';
import { buildWebhook } from './factories.ts';
import { type FieldhouseProcess, runFieldhouse } from './process.ts';
import { startReceiver } from './receiver.ts';

export type CrashRunOptions = {
  database: TestDatabase;
  changes: number;
  kills: number;
  /** Changes in flight at once, as several migration scripts would send them. */
  concurrency: number;
  /** Longest wait for the queue to drain after the last change (leases must expire). */
  drainTimeoutMs: number;
  log?: (line: string) => void;
};

export type CrashRunReport = {
  acknowledged: number;
  /** Changes whose request died with the process: committed or not, either is fine. */
  unacknowledged: number;
  events: number;
  calls: number;
  /** Acknowledged changes with no event: must be 0. */
  lostChanges: number;
  /** Events without a delivered call: must be 0. */
  lostEvents: number;
  deliveries: number;
  duplicates: number;
  restartsMs: number[];
  elapsedMs: number;
};

const ADMIN_TOKEN = 'fieldhouse-crash-run-admin-token';

/**
 * Drives schema changes through the official client at a real `fieldhouse serve` process,
 * kills it with SIGKILL `kills` times along the way and restarts it, then checks from the
 * database and a local receiver that every committed change has its event and every event
 * reached the receiver at least once.
 */
export async function crashRun(options: CrashRunOptions): Promise<CrashRunReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const receiver = await startReceiver();
  const delivered = new Map<string, number>();
  receiver.reply = (request) => {
    const callId = (JSON.parse(request.body) as { webhook_call_id: string }).webhook_call_id;
    delivered.set(callId, (delivered.get(callId) ?? 0) + 1);
    return { status: 200, body: 'ok' };
  };
  const env: Record<string, string> = {
    ...(options.database.engine === 'postgres'
      ? { DATABASE_URL: options.database.url }
      : { FIELDHOUSE_DATA_DIR: options.database.dataDir }),
    FIELDHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
    FIELDHOUSE_WEBHOOK_ALLOW: '127.0.0.1/32',
    // info: the start is detected by the 'Server listening' line.
    LOG_LEVEL: 'info',
  };

  let server: FieldhouseProcess = runFieldhouse(['serve'], env);
  let client: Client = await clientOf(server);
  let restarting: Promise<void> | null = null;
  const restartsMs: number[] = [];

  const restart = async () => {
    const killedAt = Date.now();
    server.child.kill('SIGKILL');
    await server.exited;
    server = runFieldhouse(['serve'], env);
    client = await clientOf(server);
    restartsMs.push(Date.now() - killedAt);
    log(`kill ${restartsMs.length}: back in ${restartsMs.at(-1)} ms`);
  };

  try {
    await buildWebhook(client, {
      url: `${receiver.url}/hook`,
      events: [{ entity_type: 'item_type', event_types: ['create', 'update', 'delete'] }],
      auto_retry: true,
    });
    const model = await client.itemTypes.create({ name: 'Crash', api_key: 'crash' });

    const acknowledged: string[] = [];
    let unacknowledged = 0;
    let next = 0;
    const killEvery = Math.floor(options.changes / (options.kills + 1));
    let killsDone = 0;

    const sendChanges = async () => {
      for (;;) {
        const index = next++;
        if (index >= options.changes) return;
        if (killsDone < options.kills && index === killEvery * (killsDone + 1)) {
          killsDone += 1;
          restarting = restart().finally(() => {
            restarting = null;
          });
        }
        if (restarting) await restarting;
        const hint = `change ${index}`;
        try {
          await client.itemTypes.update(model.id, { hint });
          acknowledged.push(hint);
        } catch {
          unacknowledged += 1;
          if (restarting) await restarting;
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, sendChanges));
    log(`${acknowledged.length} changes acknowledged, ${unacknowledged} cut off by kills`);

    await waitForDrain(client, options.drainTimeoutMs);
    await server.stop();

    const database = await openDatabase({
      databaseUrl: options.database.engine === 'postgres' ? options.database.url : null,
      dataDir: options.database.engine === 'embedded' ? options.database.dataDir : '',
      dbPoolSize: 2,
    });
    try {
      const hints = new Set(
        (
          await sql<{ hint: string }>`
            SELECT entity -> 'attributes' ->> 'hint' AS hint FROM events
            WHERE entity_type = 'item_type' AND event_type = 'update'
          `.execute(database.db)
        ).rows.map((row) => row.hint),
      );
      const calls = await database.db
        .selectFrom('webhook_calls')
        .select(['id', 'event_id'])
        .execute();
      const events = await database.db.selectFrom('events').select('id').execute();
      const callsByEvent = new Set(calls.map((call) => call.event_id));
      const deliveries = [...delivered.values()].reduce((sum, count) => sum + count, 0);
      return {
        acknowledged: acknowledged.length,
        unacknowledged,
        events: events.length,
        calls: calls.length,
        lostChanges: acknowledged.filter((hint) => !hints.has(hint)).length,
        lostEvents:
          events.filter((event) => !callsByEvent.has(event.id)).length +
          calls.filter((call) => !delivered.has(call.id)).length,
        deliveries,
        duplicates: deliveries - delivered.size,
        restartsMs,
        elapsedMs: Date.now() - started,
      };
    } finally {
      await database.close();
    }
  } finally {
    await server.stop();
    await receiver.close();
  }
}

async function clientOf(server: FieldhouseProcess): Promise<Client> {
  const baseUrl = (await server.listening).replace('[::1]', '127.0.0.1');
  return buildClient({ apiToken: ADMIN_TOKEN, baseUrl, autoRetry: false });
}

/** Waits until no call is left to deliver (expired leases of killed processes included). */
async function waitForDrain(client: Client, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await Promise.all(
      (['pending', 'rescheduled', 'failed'] as const).map(async (status) => {
        const page = await client.webhookCalls.rawList({
          filter: { fields: { status: { eq: status } } },
          page: { limit: 1 },
        });
        return page.meta.total_count;
      }),
    );
    if (open.every((count) => count === 0)) return;
    if (Date.now() > deadline) throw new Error(`calls still open after drain: ${open.join('/')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
