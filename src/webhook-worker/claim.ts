import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import type { ClaimedCall } from './claimed-call.ts';

type ClaimRow = {
  id: string;
  webhook_id: string;
  entity_type: string;
  event_type: string;
  attempted_auto_retries_count: number;
  manual_resend: boolean;
  last_sent_at: Date | null;
  next_retry_at: Date | null;
  url: string;
  custom_payload: string | null;
  headers: Record<string, string>;
  http_basic_user: string | null;
  http_basic_password: string | null;
  enabled: boolean;
  auto_retry: boolean;
  signing_secret: string | null;
  entity: unknown;
  previous_entity: unknown;
  related_entities: unknown[];
  event_created_at: Date;
  environment: string;
  is_environment_primary: boolean;
  site_id: string;
};

/**
 * How many more calls of each webhook a claim may take. A webhook not named here may take
 * `others`; one named with 0 is skipped (its due calls are passed over, not leased).
 */
export type WebhookRooms = { named: ReadonlyMap<string, number>; others: number };

/**
 * Leases up to `limit` due calls to `owner` in one statement (its own short
 * transaction) and returns them with their webhook and event, taking no more calls of a
 * webhook than its room. SKIP LOCKED lets concurrent workers take disjoint rows; a call
 * leased by someone else is due again only once its lease has expired (its worker died),
 * and is then taken over.
 * `token` must be new for every claim, even by the same worker: a worker that took
 * back its own expired lease must not record the older attempt's outcome over it.
 * `scanned` is how many due calls the claim looked at (it leased those within their
 * webhook's room): as many as `limit` means more may be due.
 */
export async function claimDueCalls(
  db: Db,
  token: string,
  leaseMs: number,
  limit: number,
  rooms: WebhookRooms = { named: new Map(), others: limit },
): Promise<{ calls: ClaimedCall[]; scanned: number }> {
  const named = JSON.stringify([...rooms.named].map(([webhook, room]) => ({ webhook, room })));
  const { rows } = await sql<ClaimRow & { scanned: number }>`
    WITH rooms AS (
      SELECT * FROM jsonb_to_recordset(${named}::jsonb) AS r(webhook bigint, room int)
    ), due AS (
      SELECT c.id, c.webhook_id, c.due_at FROM webhook_calls c
      WHERE c.due_at <= now() AND (c.lease_until IS NULL OR c.lease_until < now())
        AND NOT EXISTS (SELECT FROM rooms WHERE rooms.webhook = c.webhook_id AND rooms.room <= 0)
      ORDER BY c.due_at
      LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED
    ), within AS (
      SELECT ranked.id FROM (
        SELECT due.id, coalesce(rooms.room, ${rooms.others}) AS room,
          row_number() OVER (PARTITION BY due.webhook_id ORDER BY due.due_at, due.id) AS nth
        FROM due LEFT JOIN rooms ON rooms.webhook = due.webhook_id
      ) ranked
      WHERE ranked.nth <= ranked.room
    ), claimed AS (
      UPDATE webhook_calls c
      SET lease_owner = ${token}, lease_until = now() + ${leaseMs} * interval '1 millisecond'
      FROM within WHERE c.id = within.id
      RETURNING c.id, c.webhook_id, c.event_id, c.entity_type, c.event_type,
        c.attempted_auto_retries_count, c.manual_resend, c.last_sent_at, c.next_retry_at
    )
    SELECT claimed.id, claimed.webhook_id, claimed.entity_type, claimed.event_type,
      claimed.attempted_auto_retries_count, claimed.manual_resend, claimed.last_sent_at,
      claimed.next_retry_at, w.url, w.custom_payload, w.headers, w.http_basic_user,
      w.http_basic_password, w.enabled, w.auto_retry, w.signing_secret,
      -- A record event keeps a nested entity only when the record's model holds blocks.
      CASE WHEN w.nested_items_in_payload AND e.nested_entity IS NOT NULL
        THEN e.nested_entity ELSE e.entity END AS entity,
      CASE WHEN w.nested_items_in_payload AND e.nested_entity IS NOT NULL
        THEN e.nested_previous_entity ELSE e.previous_entity END AS previous_entity,
      e.related_entities, e.created_at AS event_created_at, e.environment,
      coalesce(e.is_environment_primary, env.is_primary, true) AS is_environment_primary,
      (SELECT id::text FROM site LIMIT 1) AS site_id,
      (SELECT count(*)::int FROM due) AS scanned
    FROM claimed
    JOIN webhooks w ON w.id = claimed.webhook_id
    JOIN events e ON e.id = claimed.event_id
    LEFT JOIN environments env ON env.id = e.environment
  `.execute(db);
  return {
    calls: rows.map((row) => toClaimedCall(row, token)),
    scanned: rows[0]?.scanned ?? 0,
  };
}

function toClaimedCall(row: ClaimRow, leaseToken: string): ClaimedCall {
  return {
    id: row.id,
    leaseToken,
    webhookId: row.webhook_id,
    entityType: row.entity_type,
    eventType: row.event_type,
    autoRetriesCount: row.attempted_auto_retries_count,
    manualResend: row.manual_resend,
    lastSentAt: row.last_sent_at,
    nextRetryAt: row.next_retry_at,
    webhook: {
      url: row.url,
      customPayload: row.custom_payload,
      headers: row.headers,
      httpBasicUser: row.http_basic_user,
      httpBasicPassword: row.http_basic_password,
      enabled: row.enabled,
      autoRetry: row.auto_retry,
      signingSecret: row.signing_secret,
    },
    event: {
      entity: row.entity,
      previousEntity: row.previous_entity,
      relatedEntities: row.related_entities,
      createdAt: row.event_created_at,
      environment: row.environment,
      isEnvironmentPrimary: row.is_environment_primary,
    },
    siteId: row.site_id,
  };
}

/** The lease token of a worker's n-th claim: the worker's name, '#', the claim number. */
export function leaseToken(workerId: string, claim: number): string {
  return `${workerId}#${claim}`;
}

/** Gives back every lease the worker still holds, so another worker can take the calls now. */
export async function releaseLeases(db: Db, workerId: string): Promise<void> {
  await sql`
    UPDATE webhook_calls SET lease_owner = NULL, lease_until = NULL
    WHERE starts_with(lease_owner, ${`${workerId}#`})
  `.execute(db);
}
