import { type Kysely, sql } from 'kysely';

// Webhooks and their delivery log. A webhook_calls row is both the log entry the API
// shows and the delivery job: it is written in the transaction of the schema change
// (the outbox), and workers claim it when `due_at` comes, under a lease.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhooks (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL,
      url text NOT NULL,
      custom_payload text,
      headers jsonb NOT NULL,
      events jsonb NOT NULL,
      http_basic_user text,
      http_basic_password text,
      enabled boolean NOT NULL,
      payload_api_version text NOT NULL,
      nested_items_in_payload boolean NOT NULL,
      auto_retry boolean NOT NULL,
      signing_secret text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX webhooks_name_key ON webhooks (name);

    CREATE TABLE webhook_calls (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      event_id bigint NOT NULL REFERENCES events (id),
      entity_type text NOT NULL,
      event_type text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      request_url text,
      request_headers jsonb,
      request_payload text,
      response_status integer,
      response_headers jsonb,
      response_payload text,
      attempted_auto_retries_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_sent_at timestamptz,
      next_retry_at timestamptz,
      due_at timestamptz DEFAULT now(),
      manual_resend boolean NOT NULL DEFAULT false,
      lease_owner text,
      lease_until timestamptz
    );
    CREATE UNIQUE INDEX webhook_calls_webhook_event_key ON webhook_calls (webhook_id, event_id);
    CREATE INDEX webhook_calls_due_idx ON webhook_calls (due_at) WHERE due_at IS NOT NULL;
    CREATE INDEX webhook_calls_created_idx ON webhook_calls (created_at, id);

    CREATE TABLE webhook_call_attempts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      webhook_call_id bigint NOT NULL REFERENCES webhook_calls (id) ON DELETE CASCADE,
      manual boolean NOT NULL,
      auto_retry_number integer NOT NULL,
      started_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      outcome text NOT NULL,
      response_status integer,
      error text,
      worker text NOT NULL
    );
    CREATE INDEX webhook_call_attempts_call_idx ON webhook_call_attempts (webhook_call_id, id);
  `.execute(db);
}
