import { type QueryCreator, sql } from 'kysely';
import type { EnvironmentRef, ScopedTransaction } from '../db/environment-scope.ts';
import { type UnreadWrite, withWrites } from '../db/query/carried-writes.ts';
import { executePrepared, preparedShape } from '../db/query/prepared.ts';
import type { ProjectDatabase } from '../db/schema.ts';
import type { Trx } from '../db/transaction.ts';
import { type PresentedEvent, presentEvent } from '../presenters/event.ts';
import { cacheTagsEntity } from './cda-cache-tags.ts';
import type { SchemaEvent } from './domain-events.ts';
import { type EnabledWebhook, enqueueWebhookCalls } from './fan-out.ts';
import type { MatchableEvent } from './matching.ts';
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
 * A change's last writes, which its event's insert carries as data-modifying CTEs: one
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

/** An event's columns as the insert writes them (JSON serialised), in this order. */
type EventColumns = [
  environment: string,
  isEnvironmentPrimary: boolean,
  entityType: string,
  eventType: string,
  entityId: string,
  entity: string,
  previousEntity: string,
  relatedEntities: string,
];

/**
 * The event's insert, which brings back the enabled webhooks with the id, saving the
 * fan-out a round trip. Two shapes: a record event may also keep its nested entities.
 */
function insertEvent(
  db: QueryCreator<ProjectDatabase>,
  columns: EventColumns,
  nested?: [entity: string, previous: string],
) {
  const [environment, primary, entityType, eventType, entityId, entity, previous, related] =
    columns;
  return db
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
      ...(nested ? { nested_entity: nested[0], nested_previous_entity: nested[1] } : {}),
    })
    .returning((eb) => [
      'id',
      eb
        .selectFrom('webhooks')
        .select(
          sql<
            EnabledWebhook[]
          >`coalesce(json_agg(json_build_object('id', id::text, 'events', events)), '[]')`.as(
            'webhooks',
          ),
        )
        .where('enabled', '=', true)
        .as('webhooks'),
    ]);
}

const insertPlainEvent = preparedShape((trx: Trx, ...columns: EventColumns) =>
  insertEvent(trx, columns),
);
const insertNestedEvent = preparedShape(
  (trx: Trx, nestedEntity: string, nestedPrevious: string, ...columns: EventColumns) =>
    insertEvent(trx, columns, [nestedEntity, nestedPrevious]),
);

/** The event's insert carrying the change's last writes: compiled on every call, prepared. */
async function insertEventAfter(
  trx: Trx,
  last: LastWrites,
  columns: EventColumns,
  nested: [entity: string, previous: string] | undefined,
) {
  return executePrepared(
    trx,
    insertEvent(withWrites<ProjectDatabase>(trx, last.writes), columns, nested),
  );
}

/**
 * As emitEvent, for events of an environment itself (fork, promote, destroy…). The event
 * is presented here, into the JSON its row stores and webhook payloads are made of: in
 * the change's transaction and in the statement that inserts it.
 */
export async function recordEvent(
  trx: Trx,
  environment: EnvironmentRef,
  event: SchemaEvent,
  last?: LastWrites,
): Promise<void> {
  const presented = presentEvent(event);
  const columns: EventColumns = [
    environment.id,
    environment.isPrimary,
    event.entityType,
    event.eventType,
    presented.entity.id,
    JSON.stringify(presented.entity),
    JSON.stringify(previousAsStored(presented.entity, presented.previousEntity)),
    JSON.stringify(presented.relatedEntities),
  ];
  const nested: [string, string] | undefined = presented.nestedEntity
    ? [
        JSON.stringify(presented.nestedEntity),
        JSON.stringify(previousAsStored(presented.nestedEntity, presented.nestedPreviousEntity)),
      ]
    : undefined;
  const [inserted] =
    last && last.writes.length > 0
      ? await insertEventAfter(trx, last, columns, nested)
      : nested
        ? await insertNestedEvent(trx, ...nested, ...columns)
        : await insertPlainEvent(trx, ...columns);
  if (!inserted) throw new Error('the event insert returned no id');
  const webhooks = inserted.webhooks ?? [];
  await enqueueWebhookCalls(trx, inserted.id, matchable(event, presented, environment), webhooks);
  await invalidateCacheTags(trx, environment, event.entityType, presented, webhooks);
}

/**
 * The change's `cda_cache_tags` / `invalidate` event, committed with it, when a webhook
 * asks for those events (no statement otherwise). The event takes no filters.
 */
async function invalidateCacheTags(
  trx: Trx,
  environment: EnvironmentRef,
  entityType: SchemaEvent['entityType'],
  presented: PresentedEvent,
  webhooks: EnabledWebhook[],
): Promise<void> {
  const wanted = webhooks.some((webhook) =>
    webhook.events.some((rule) => rule.entity_type === 'cda_cache_tags'),
  );
  if (!wanted) return;
  const entity = cacheTagsEntity({ entityType, ...presented }, environment);
  if (!entity) return;
  const [inserted] = await insertPlainEvent(
    trx,
    environment.id,
    environment.isPrimary,
    'cda_cache_tags',
    'invalidate',
    entity.id,
    JSON.stringify(entity),
    JSON.stringify(null),
    JSON.stringify([]),
  );
  if (!inserted) throw new Error('the event insert returned no id');
  await enqueueWebhookCalls(
    trx,
    inserted.id,
    { entityType: 'cda_cache_tags', eventType: 'invalidate', filterKeys: {} },
    webhooks,
  );
}
