import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './db/client.ts';
import { droppedLogLines } from './log-output.ts';

/** Every Prometheus metric a Fieldhouse process exposes, on its own registry. */
export type Metrics = {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  deliveries: Counter<'outcome'>;
  deliveryDuration: Histogram<'outcome'>;
  /** Seconds from the change's commit to the receiver's answer, first attempts only. */
  commitToDelivery: Histogram;
  /** Asset renditions served, by where they came from: the cache, a render, a shared render. */
  renditions: Counter<'outcome'>;
};

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  const metrics: Metrics = {
    registry,
    httpDuration: new Histogram({
      name: 'fieldhouse_http_request_duration_seconds',
      help: 'API request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'fieldhouse_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    deliveryDuration: new Histogram({
      name: 'fieldhouse_webhook_delivery_duration_seconds',
      help: 'Time a delivery attempt took, from connect to the response',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
      registers: [registry],
    }),
    commitToDelivery: new Histogram({
      name: 'fieldhouse_webhook_commit_to_delivery_seconds',
      help: 'Time from the committed change to the receiver answering its first delivery',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30],
      registers: [registry],
    }),
    renditions: new Counter({
      name: 'fieldhouse_asset_renditions_total',
      help: 'Image renditions served: cached (from the cache), rendered, joined (shared a render in progress)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
  registerQueueGauges(registry, db);
  new Counter({
    name: 'fieldhouse_log_lines_dropped_total',
    help: 'Log lines dropped because stdout was not read fast enough',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(droppedLogLines());
    },
  });
  return metrics;
}

/** Queue state is read from the database at scrape time: every process sees the same queue. */
function registerQueueGauges(registry: Registry, db: Db): void {
  let pending: Promise<{ depth: number; oldestAge: number }> | null = null;
  // Both gauges come from one query, shared by the two collect() calls of one scrape.
  const readQueue = () => {
    pending ??= sql<{ depth: string; oldest_age: number | null }>`
      SELECT count(*) AS depth,
             extract(epoch FROM now() - min(due_at))::float8 AS oldest_age
      FROM webhook_calls WHERE due_at <= now()
    `
      .execute(db)
      .then(({ rows }) => ({
        depth: Number(rows[0]?.depth ?? 0),
        oldestAge: Math.max(0, rows[0]?.oldest_age ?? 0),
      }))
      .finally(() => {
        pending = null;
      });
    return pending;
  };
  new Gauge({
    name: 'fieldhouse_webhook_queue_depth',
    help: 'Webhook calls due for delivery now',
    registers: [registry],
    async collect() {
      this.set((await readQueue()).depth);
    },
  });
  new Gauge({
    name: 'fieldhouse_webhook_queue_oldest_due_seconds',
    help: 'How long the oldest due webhook call has waited',
    registers: [registry],
    async collect() {
      this.set((await readQueue()).oldestAge);
    },
  });
}
