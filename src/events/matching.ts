import { type Expression, type RawBuilder, sql } from 'kysely';

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

/** A jsonb value as an array: itself when it is one, else empty (a null `filters`). */
function asArray(value: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END)`;
}

/**
 * Does any of a webhook's rules (`rules`, its `events` column) ask for an event of these
 * types, named by these ids (`filterKeys`: MatchableEvent's, as JSON)? Written in SQL, so
 * the statement that records an event queues its calls too. A rule asks for it when it
 * names the entity type and the event type, and every one of its filters (ANDed) names
 * one of the event's ids for the filter's entity type (ORed).
 */
export function webhookWants(
  rules: Expression<unknown>,
  entityType: string,
  eventType: string,
  filterKeys: string,
): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (
    SELECT 1 FROM jsonb_array_elements(${rules}) AS r (rule)
    WHERE r.rule->>'entity_type' = ${entityType}
      AND r.rule->'event_types' ? ${eventType}
      AND NOT EXISTS (
        SELECT 1 FROM jsonb_array_elements(${asArray(sql`r.rule->'filters'`)}) AS f (filter)
        WHERE NOT (
          ${asArray(sql`${filterKeys}::jsonb -> (f.filter->>'entity_type')`)}
            ?| ARRAY(SELECT jsonb_array_elements_text(${asArray(sql`f.filter->'entity_ids'`)}))
        )
      )
  )`;
}
