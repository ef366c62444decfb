import { sql } from 'kysely';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/client.ts';
import { bootstrapProject } from '../../src/domain/bootstrap.ts';
import { WEBHOOK_CALLS_CHANNEL } from '../../src/events/channel.ts';
import {
  type DeliveryWorkerOptions,
  startDeliveryWorker,
} from '../../src/webhook-worker/worker.ts';
import { createTestDatabase, databaseConfig } from './databases.ts';

export const LOOPBACK = ['127.0.0.0/8', '::1'];

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A fresh bootstrapped database for delivery workers, without an API in front. */
export async function openWorkerDatabase(overrides: Partial<Config> = {}) {
  const database = await createTestDatabase();
  const config: Config = {
    ...loadConfig({}),
    ...databaseConfig(database, 5),
    webhookAllow: LOOPBACK,
    webhookRetrySchedule: [1, 1],
    ...overrides,
  };
  const handle = await openDatabase(config);
  await bootstrapProject(handle.db, { adminToken: null });
  const workers: { stop(): Promise<void> }[] = [];
  return {
    db: handle.db,
    config,
    /** A worker on this database; stopped by close() unless the test stops it first. */
    startWorker(options: Partial<DeliveryWorkerOptions> = {}) {
      const worker = startDeliveryWorker({
        db: handle.db,
        config,
        logger: silent,
        listenInProcess: handle.listenInProcess,
        ...options,
      });
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await handle.close();
      await database.drop();
    },
  };
}

export type WebhookFields = {
  name?: string;
  url: string;
  custom_payload?: string | null;
  headers?: Record<string, string>;
  http_basic_user?: string | null;
  http_basic_password?: string | null;
  enabled?: boolean;
  auto_retry?: boolean;
  signing_secret?: string | null;
};

let webhookCount = 0;

export async function insertWebhook(db: Db, fields: WebhookFields): Promise<string> {
  webhookCount += 1;
  const row = await db
    .insertInto('webhooks')
    .values({
      name: fields.name ?? `Webhook ${webhookCount}`,
      url: fields.url,
      custom_payload: fields.custom_payload ?? null,
      headers: JSON.stringify(fields.headers ?? {}),
      events: JSON.stringify([
        { entity_type: 'item_type', event_types: ['create'], filters: null },
      ]),
      http_basic_user: fields.http_basic_user ?? null,
      http_basic_password: fields.http_basic_password ?? null,
      enabled: fields.enabled ?? true,
      payload_api_version: '3',
      nested_items_in_payload: false,
      auto_retry: fields.auto_retry ?? true,
      signing_secret: fields.signing_secret ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An item_type event, as the outbox writes it. */
export async function insertEvent(
  db: Db,
  attributes: Record<string, unknown> = {},
  eventType: 'create' | 'update' | 'delete' = 'create',
): Promise<{ id: string; entity: Record<string, unknown> }> {
  const entity = {
    id: 'AbCdEf123',
    type: 'item_type',
    attributes: { name: 'Blog post', api_key: 'blog_post', ...attributes },
  };
  const row = await db
    .insertInto('events')
    .values({
      environment: 'main',
      entity_type: 'item_type',
      event_type: eventType,
      entity_id: entity.id,
      entity: JSON.stringify(entity),
      previous_entity: JSON.stringify(eventType === 'update' ? entity : null),
      related_entities: JSON.stringify([]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, entity };
}

/** Queues a call as the outbox does: the row, then a notification on commit. */
export async function queueCall(db: Db, webhookId: string, eventId: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const event = await trx
      .selectFrom('events')
      .select(['entity_type', 'event_type'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto('webhook_calls')
      .values({ webhook_id: webhookId, event_id: eventId, ...event })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`SELECT pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')`.execute(trx);
    return row.id;
  });
}

/**
 * An event and its call committed together, as the outbox commits them: a running
 * server's pruner deletes an event no call names, so a test against a live server must
 * never leave one alone between two transactions.
 */
export async function queueEventCall(db: Db, webhookId: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const event = await insertEvent(trx);
    const row = await trx
      .insertInto('webhook_calls')
      .values({
        webhook_id: webhookId,
        event_id: event.id,
        entity_type: 'item_type',
        event_type: 'create',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`SELECT pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')`.execute(trx);
    return row.id;
  });
}

export function findCall(db: Db, id: string) {
  return db.selectFrom('webhook_calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export function attemptsOf(db: Db, callId: string) {
  return db
    .selectFrom('webhook_call_attempts')
    .selectAll()
    .where('webhook_call_id', '=', callId)
    .orderBy('id')
    .execute();
}

/**
 * Polls until `check` returns a value (not undefined/false), or fails after the timeout:
 * a bound for a broken run, generous because the suite shares a loaded machine.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the call has left `pending`/in-flight and returns it. */
export function settledCall(db: Db, id: string, status: string, timeoutMs = 60_000) {
  return eventually(async () => {
    const call = await findCall(db, id);
    return call.status === status && call.lease_owner === null ? call : undefined;
  }, timeoutMs);
}
