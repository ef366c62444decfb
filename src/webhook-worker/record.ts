import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import type { Decision } from './outcome.ts';

export type AttemptRecord = {
  callId: string;
  /** The claim's lease token: the fence. */
  leaseToken: string;
  /** The worker's name, for the attempt log. */
  worker: string;
  /** The manual_resend flag the call had when it was claimed. */
  claimedManualResend: boolean;
  manual: boolean;
  decision: Decision;
  startedAt: Date;
  durationMs: number;
  requestUrl: string | null;
  requestHeaders: Record<string, string> | null;
  requestPayload: string | null;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responsePayload: string | null;
  error: string | null;
};

/**
 * Stores an attempt's outcome on its call and logs the attempt, in one statement,
 * only while the call still carries this claim's lease token: a worker whose lease was taken over
 * cannot overwrite the newer attempt. A resend requested while the attempt was in
 * flight stays queued. Returns false when the lease was lost.
 *
 * The statement commits without waiting for the WAL flush (synchronous_commit off, for
 * this transaction only): ~30% more deliveries/s on PostgreSQL. Should PostgreSQL itself
 * crash right after, the outcome is lost and the call is sent again once its lease
 * expires — a duplicate, never a lost event (the call itself committed durably).
 */
export async function recordAttempt(db: Db, record: AttemptRecord): Promise<boolean> {
  const { decision } = record;
  const json = (value: Record<string, string> | null) =>
    value === null ? null : JSON.stringify(value);
  const { rows } = await sql<{ id: string }>`
    WITH relaxed AS (
      SELECT set_config('synchronous_commit', 'off', true)
    ), updated AS (
      UPDATE webhook_calls SET
        status = ${decision.status},
        request_url = ${record.requestUrl},
        request_headers = ${json(record.requestHeaders)}::jsonb,
        request_payload = ${record.requestPayload},
        response_status = ${record.responseStatus},
        response_headers = ${json(record.responseHeaders)}::jsonb,
        response_payload = ${record.responsePayload},
        attempted_auto_retries_count = ${decision.autoRetriesCount},
        last_sent_at = ${record.startedAt},
        next_retry_at = ${decision.nextRetryAt},
        due_at = CASE WHEN manual_resend AND NOT ${record.claimedManualResend}
                      THEN now() ELSE ${decision.dueAt}::timestamptz END,
        manual_resend = manual_resend AND NOT ${record.claimedManualResend},
        lease_owner = NULL,
        lease_until = NULL
      WHERE id = ${record.callId} AND lease_owner = ${record.leaseToken}
        AND EXISTS (SELECT FROM relaxed)
      RETURNING id
    )
    INSERT INTO webhook_call_attempts (webhook_call_id, manual, auto_retry_number, started_at,
      duration_ms, outcome, response_status, error, worker)
    SELECT id, ${record.manual}, ${decision.autoRetriesCount}, ${record.startedAt},
      ${Math.round(record.durationMs)}, ${decision.status === 'success' ? 'success' : 'failed'},
      ${record.responseStatus}, ${record.error}, ${record.worker}
    FROM updated
    RETURNING webhook_call_id AS id
  `.execute(db);
  return rows.length > 0;
}
