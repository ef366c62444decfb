import { type Compilable, sql } from 'kysely';
import type { EnvironmentRef, ScopedTransaction } from '../db/environment-scope.ts';
import { type UnreadWrite, writeCtes } from '../db/query/carried-writes.ts';
import { executePrepared, preparedShape } from '../db/query/prepared.ts';
import type { Trx } from '../db/transaction.ts';
import { type PresentedEvent, presentEvent } from '../presenters/event.ts';
import { cacheTagsEntity } from './cda-cache-tags.ts';
import { WEBHOOK_CALLS_CHANNEL } from './channel.ts';
import type { SchemaEvent } from './domain-events.ts';
import { queuedCalls } from './fan-out.ts';
import { type MatchableEvent, webhookWants } from './matching.ts';
import { previousAsStored } from './previous-entity.ts';

export type { SchemaEvent } from './domain-events.ts';

/**
 * The ids webhook filters can name this event by: a model by its id or its api_key,
 * the environment by its id and its type.
 */
function matchable(
  event: SchemaEvent,
  presented: PresentedEvent,
  environment: EnvironmentRef,
): MatchableEvent {
  const model =
    event.entityType === 'item_type' || event.entityType === 'item'
      ? event.model.itemType
      : undefined;
  return {
    entityType: event.entityType,
    eventType: event.eventType,
    filterKeys: {
      ...(model ? { item_type: [model.id, model.api_key] } : {}),
      ...(event.entityType === 'item' ? { item: [presented.entity.id] } : {}),
      environment: [environment.id],
      environment_type: [environment.isPrimary ? 'primary' : 'sandbox'],
    },
  };
}

/**
 * A change's last writes, which its event's statement carries as data-modifying CTEs: one
 * statement instead of one more each. They run in that statement, after everything the
 * change sent before it: pass only writes that no read of the change has to see, whose
 * result nothing needs. Their triggers fire as the statement ends, as they would have.
 * The statement is prepared (executePrepared): a write's text must not vary but by its
 * schema (an update sets the same columns every time, not just those that changed), or
 * each text becomes one more prepared statement per connection.
 */
export type LastWrites = Readonly<{ writes: readonly UnreadWrite[] }>;

/**
 * Records an event of the transaction's environment and its webhook deliveries inside
 * the caller's transaction: the change, its event and its calls commit together or not
 * at all. The payload names the environment as it is when the change commits. With
 * `last`, the change's last writes go in the event's statement (LastWrites).
 */
export async function emitEvent(
  tx: ScopedTransaction,
  event: SchemaEvent,
  last?: LastWrites,
): Promise<void> {
  await recordEvent(tx.project, tx.environment, event, last);
}

/**
 * An event's statement's arguments, in this order: the event's columns as its insert
 * writes them (JSON serialised; the nested entities null unless a record event keeps
 * them), the ids webhook filters may name it by (MatchableEvent's `filterKeys`, as JSON),
 * and its `cda_cache_tags` entity (null when the change invalidates no delivery cache).
 */
type EventArgs = [
  environment: string,
  isEnvironmentPrimary: boolean,
  entityType: string,
  eventType: string,
  entityId: string,
  entity: string,
  previousEntity: string,
  relatedEntities: string,
  nestedEntity: string | null,
  nestedPrevious: string | null,
  filterKeys: string,
  cacheTags: string | null,
];

const CACHE_TAGS = { entityType: 'cda_cache_tags', eventType: 'invalidate' } as const;

/**
 * The one statement that records an event: the change's last writes (CTEs `write_<n>`),
 * the event, the calls of the webhooks that want it (fan-out.ts), and, when the change
 * invalidates delivery cache keys and an enabled webhook asks for `cda_cache_tags`
 * events, that event and its calls too. The workers are notified (at commit) when any
 * call was queued. Every part reads the database as it was before the statement; the
 * writes' triggers fire as it ends. It answers the event's id, which nothing reads.
 */
function eventStatement(
  db: Trx,
  writes: readonly UnreadWrite[],
  args: EventArgs,
): Compilable<{ id: string }> {
  const [
    environment,
    primary,
    entityType,
    eventType,
    entityId,
    entity,
    previous,
    related,
    nestedEntity,
    nestedPrevious,
    filterKeys,
    cacheTags,
  ] = args;
  const event = db
    .insertInto('events')
    .values({
      environment,
      is_environment_primary: primary,
      entity_type: entityType,
      event_type: eventType,
      entity_id: entityId,
      entity,
      previous_entity: previous,
      related_entities: related,
      nested_entity: nestedEntity,
      nested_previous_entity: nestedPrevious,
    })
    .returning('id');
  // `cda_cache_tags` events take no filters.
  const { entityType: tagsType, eventType: tagsEvent } = CACHE_TAGS;
  const wantsTags = webhookWants(sql.ref('w.events'), tagsType, tagsEvent, '{}');
  const tagsInsert = sql`INSERT INTO events (environment, is_environment_primary, entity_type,
      event_type, entity_id, entity, previous_entity, related_entities)
    SELECT ${environment}, ${primary}, ${tagsType}, ${tagsEvent}, ${cacheTags}::jsonb->>'id',
      ${cacheTags}::jsonb, 'null'::jsonb, '[]'::jsonb
    WHERE ${cacheTags}::jsonb IS NOT NULL
      AND EXISTS (SELECT 1 FROM webhooks AS w WHERE w.enabled AND ${wantsTags})
    RETURNING id`;
  const parts = [
    ...writeCtes(writes),
    sql`"event" AS (${event})`,
    sql`"calls" AS (${queuedCalls('event', entityType, eventType, filterKeys)})`,
    sql`"tags_event" AS (${tagsInsert})`,
    sql`"tags_calls" AS (${queuedCalls('tags_event', tagsType, tagsEvent, '{}')})`,
  ];
  const statement = sql<{ id: string }>`WITH ${sql.join(parts)}
    SELECT e.id, (
      SELECT pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')
      WHERE EXISTS (SELECT 1 FROM "calls") OR EXISTS (SELECT 1 FROM "tags_calls")
    )::text AS notified
    FROM "event" AS e`;
  return { compile: () => statement.compile(db) };
}

// Nothing reads an event's statement's answer, and its errors are told apart outside the
// change's transaction: it is held, to go with the change's next statement or its COMMIT
// (executePrepared's `held`): a change that ends with its event commits in its round trip.
const HELD = { held: true } as const;

// The statement without carried writes: built and compiled once.
const recordEventAlone = preparedShape(
  (trx: Trx, ...args: EventArgs) => eventStatement(trx, [], args),
  HELD,
);

/**
 * As emitEvent, for events of an environment itself (fork, promote, destroy…). The event
 * is presented here, into the JSON its row stores and webhook payloads are made of: in
 * the change's transaction and in the statement that inserts it. That statement is held
 * (HELD): it goes out with the transaction's next statement or its COMMIT, and a failure
 * of it (a carried write's unique key) surfaces there.
 */
export async function recordEvent(
  trx: Trx,
  environment: EnvironmentRef,
  event: SchemaEvent,
  last?: LastWrites,
): Promise<void> {
  const presented = presentEvent(event);
  const tags = cacheTagsEntity({ entityType: event.entityType, ...presented }, environment);
  const nested = presented.nestedEntity;
  const args: EventArgs = [
    environment.id,
    environment.isPrimary,
    event.entityType,
    event.eventType,
    presented.entity.id,
    JSON.stringify(presented.entity),
    JSON.stringify(previousAsStored(presented.entity, presented.previousEntity)),
    JSON.stringify(presented.relatedEntities),
    nested ? JSON.stringify(nested) : null,
    nested ? JSON.stringify(previousAsStored(nested, presented.nestedPreviousEntity)) : null,
    JSON.stringify(matchable(event, presented, environment).filterKeys),
    tags ? JSON.stringify(tags) : null,
  ];
  // With last writes the text varies with them: compiled on every call, still prepared.
  if (last && last.writes.length > 0)
    await executePrepared(trx, eventStatement(trx, last.writes, args), HELD);
  else await recordEventAlone(trx, ...args);
}
