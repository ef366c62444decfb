import type { WebhookEventRule } from '../db/schema.ts';

/**
 * What an event can be filtered on: its entity and event types, and per filter entity
 * type the ids that name it (a model by id or api_key, the environment by id, the
 * environment type as `primary`/`sandbox`). A filter type the event has no ids for
 * cannot match it.
 */
export type MatchableEvent = {
  entityType: string;
  eventType: string;
  filterKeys: Readonly<Partial<Record<string, readonly string[]>>>;
};

/** Filters are ANDed; the ids inside one filter are ORed. */
function filtersMatch(filters: WebhookEventRule['filters'], event: MatchableEvent): boolean {
  return (filters ?? []).every((filter) => {
    const keys = event.filterKeys[filter.entity_type] ?? [];
    return filter.entity_ids.some((id) => keys.includes(id));
  });
}

/** Does any of a webhook's rules ask for this event? */
export function webhookWantsEvent(rules: WebhookEventRule[], event: MatchableEvent): boolean {
  return rules.some(
    (rule) =>
      rule.entity_type === event.entityType &&
      rule.event_types.includes(event.eventType) &&
      filtersMatch(rule.filters, event),
  );
}
