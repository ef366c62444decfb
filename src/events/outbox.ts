import type { Trx } from '../db/transaction.ts';
import type { Resource } from '../presenters/jsonapi.ts';

export type SchemaEvent = {
  entityType: 'item_type';
  eventType: 'create' | 'update' | 'delete';
  entity: Resource;
  previousEntity?: Resource | null;
  relatedEntities?: Resource[];
};

/**
 * Records an event inside the caller's transaction: the change and its event commit
 * together or not at all, and delivery reads them from here.
 */
export async function emitEvent(trx: Trx, event: SchemaEvent): Promise<void> {
  await trx
    .insertInto('events')
    .values({
      environment: 'main',
      entity_type: event.entityType,
      event_type: event.eventType,
      entity_id: event.entity.id,
      entity: JSON.stringify(event.entity),
      previous_entity: JSON.stringify(event.previousEntity ?? null),
      related_entities: JSON.stringify(event.relatedEntities ?? []),
    })
    .execute();
}
