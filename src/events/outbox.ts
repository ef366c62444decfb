import { executePrepared } from '../db/prepared.ts';
import type { Trx } from '../db/transaction.ts';
import type { Resource } from '../presenters/jsonapi.ts';
import { enqueueWebhookCalls } from './fan-out.ts';
import type { MatchableEvent } from './matching.ts';

export type SchemaEvent = {
  entityType: 'item_type';
  eventType: 'create' | 'update' | 'delete';
  entity: Resource;
  previousEntity?: Resource | null;
  relatedEntities?: Resource[];
};

// Schema changes happen in the primary environment (the API serves no other yet).
const ENVIRONMENT = { id: 'main', type: 'primary' } as const;

/** The ids webhook filters can name this event by: a model by its id or its api_key. */
function matchable(event: SchemaEvent): MatchableEvent {
  const apiKey = event.entity.attributes.api_key;
  const modelKeys = typeof apiKey === 'string' ? [event.entity.id, apiKey] : [event.entity.id];
  return {
    entityType: event.entityType,
    eventType: event.eventType,
    filterKeys: {
      item_type: modelKeys,
      environment: [ENVIRONMENT.id],
      environment_type: [ENVIRONMENT.type],
    },
  };
}

/**
 * Records an event and its webhook deliveries inside the caller's transaction: the
 * change, its event and its calls commit together or not at all.
 */
export async function emitEvent(trx: Trx, event: SchemaEvent): Promise<void> {
  const insert = trx
    .insertInto('events')
    .values({
      environment: ENVIRONMENT.id,
      entity_type: event.entityType,
      event_type: event.eventType,
      entity_id: event.entity.id,
      entity: JSON.stringify(event.entity),
      previous_entity: JSON.stringify(event.previousEntity ?? null),
      related_entities: JSON.stringify(event.relatedEntities ?? []),
    })
    .returning('id');
  const [inserted] = await executePrepared(trx, insert);
  if (!inserted) throw new Error('the event insert returned no id');
  await enqueueWebhookCalls(trx, inserted.id, matchable(event));
}
