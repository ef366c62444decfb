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
 * Leases up to `limit` due calls to `owner` in one statement (its own short
 * transaction) and returns them with their webhook and event. SKIP LOCKED lets
 * concurrent workers take disjoint rows; a call leased by someone else is due again
 * only once its lease has expired (its worker died), and is then taken over.
 * `token` must be new for every claim, even by the same worker: a worker that took
 * back its own expired lease must not record the older attempt's outcome over it.
 */
export async function claimDueCalls(
  db: Db,
  token: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedCall[]> {
  const { rows } = await sql<ClaimRow>`
    WITH due AS (
      SELECT id FROM webhook_calls
      WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())
      ORDER BY due_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_calls c
      SET lease_owner = ${token}, lease_until = now() + ${leaseMs} * interval '1 millisecond'
      FROM due WHERE c.id = due.id
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
      (SELECT id::text FROM site LIMIT 1) AS site_id
    FROM claimed
    JOIN webhooks w ON w.id = claimed.webhook_id
    JOIN events e ON e.id = claimed.event_id
    LEFT JOIN environments env ON env.id = e.environment
  `.execute(db);
  return rows.map((row) => toClaimedCall(row, token));
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
