import { sql } from 'kysely';
import type { EnvironmentRef, ScopedTransaction } from '../db/environment-scope.ts';
import { preparedShape } from '../db/prepared.ts';
import type { Trx } from '../db/transaction.ts';
import type { EnvironmentResource } from '../presenters/environment.ts';
import type { Resource } from '../presenters/jsonapi.ts';
import { type EnabledWebhook, enqueueWebhookCalls } from './fan-out.ts';
import type { MatchableEvent } from './matching.ts';

export type SchemaEvent =
  | EventOf<'item_type', 'create' | 'update' | 'delete'>
  | (EventOf<'item', 'create' | 'update' | 'delete' | 'publish' | 'unpublish'> & NestedEntities)
  | EventOf<'environment', 'create' | 'promote' | 'delete', EnvironmentResource>
  | EventOf<'maintenance_mode', 'change'>;

type EventOf<EntityType extends string, EventType extends string, Entity = Resource> = {
  entityType: EntityType;
  eventType: EventType;
  entity: Entity;
  previousEntity?: Entity | null;
  relatedEntities?: Resource[];
};

/**
 * A record with its blocks inline, for webhooks with nested_items_in_payload; absent when
 * its model holds no blocks (the plain entity is then the nested one too).
 */
type NestedEntities = { nestedEntity?: Resource; nestedPreviousEntity?: Resource | null };

/**
 * The ids webhook filters can name this event by: a model by its id or its api_key,
 * the environment by its id and its type.
 */
function matchable(event: SchemaEvent, environment: EnvironmentRef): MatchableEvent {
  // A record's model is its first related entity.
  const model =
    event.entityType === 'item_type'
      ? event.entity
      : event.entityType === 'item'
        ? event.relatedEntities?.[0]
        : undefined;
  const apiKey = model?.attributes.api_key;
  const modelKeys = model ? (typeof apiKey === 'string' ? [model.id, apiKey] : [model.id]) : [];
  return {
    entityType: event.entityType,
    eventType: event.eventType,
    filterKeys: {
      ...(model ? { item_type: modelKeys } : {}),
      ...(event.entityType === 'item' ? { item: [event.entity.id] } : {}),
      environment: [environment.id],
      environment_type: [environment.isPrimary ? 'primary' : 'sandbox'],
    },
  };
}

/**
 * Records an event of the transaction's environment and its webhook deliveries inside
 * the caller's transaction: the change, its event and its calls commit together or not
 * at all. The payload names the environment as it is when the change commits.
 */
export async function emitEvent(tx: ScopedTransaction, event: SchemaEvent): Promise<void> {
  await recordEvent(tx.project, tx.environment, event);
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
function insertEvent(trx: Trx, columns: EventColumns, nested?: [entity: string, previous: string]) {
  const [environment, primary, entityType, eventType, entityId, entity, previous, related] =
    columns;
  return trx
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

/** As emitEvent, for events of an environment itself (fork, promote, destroy…). */
export async function recordEvent(
  trx: Trx,
  environment: EnvironmentRef,
  event: SchemaEvent,
): Promise<void> {
  const columns: EventColumns = [
    environment.id,
    environment.isPrimary,
    event.entityType,
    event.eventType,
    event.entity.id,
    JSON.stringify(event.entity),
    JSON.stringify(event.previousEntity ?? null),
    JSON.stringify(event.relatedEntities ?? []),
  ];
  const [inserted] =
    event.entityType === 'item' && event.nestedEntity
      ? await insertNestedEvent(
          trx,
          JSON.stringify(event.nestedEntity),
          JSON.stringify(event.nestedPreviousEntity ?? null),
          ...columns,
        )
      : await insertPlainEvent(trx, ...columns);
  if (!inserted) throw new Error('the event insert returned no id');
  await enqueueWebhookCalls(
    trx,
    inserted.id,
    matchable(event, environment),
    inserted.webhooks ?? [],
  );
}
