import { previousAsSent } from '../events/previous-entity.ts';
import type { ClaimedCall } from './claimed-call.ts';

// DatoCMS shows event times to the second: "2024-08-26T12:49:16Z".
function isoSeconds(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The default payload, which is also the Mustache context of a custom
 * payload and of the URL. `autoRetries` is the number of this attempt's auto-retry.
 */
export function defaultPayload(call: ClaimedCall, autoRetries: number): Record<string, unknown> {
  const { event } = call;
  return {
    webhook_call_id: call.id,
    event_triggered_at: isoSeconds(event.createdAt),
    attempted_auto_retries_count: autoRetries,
    webhook_id: call.webhookId,
    site_id: call.siteId,
    environment: event.environment,
    is_environment_primary: event.isEnvironmentPrimary,
    entity_type: call.entityType,
    event_type: call.eventType,
    entity: event.entity,
    ...(call.eventType === 'update'
      ? { previous_entity: previousAsSent(event.entity, event.previousEntity) ?? null }
      : {}),
    related_entities: event.relatedEntities,
  };
}
