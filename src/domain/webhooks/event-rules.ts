import type { WebhookEventRule } from '../../db/schema.ts';
import type { Issues } from '../errors.ts';
import {
  MAX_EVENT_TYPES_PER_EVENT,
  MAX_EVENTS_PER_WEBHOOK,
  MAX_FILTERS_PER_EVENT,
  MAX_IDS_PER_FILTER,
  MAX_NAME_LENGTH,
} from '../limits.ts';

/** Which events each entity type can fire. */
export const EVENT_TYPES_BY_ENTITY: Readonly<Record<string, readonly string[]>> = {
  item: ['create', 'update', 'delete', 'publish', 'unpublish'],
  item_type: ['create', 'update', 'delete'],
  upload: ['create', 'update', 'delete'],
  build_trigger: ['deploy_started', 'deploy_succeeded', 'deploy_failed'],
  environment: ['create', 'update', 'promote', 'delete'],
  maintenance_mode: ['change'],
  sso_user: ['create'],
  cda_cache_tags: ['invalidate'],
};

/** Which event entity types each filter can restrict; `null` means any of them. */
const FILTER_APPLIES_TO: Readonly<Record<string, readonly string[] | null>> = {
  item: ['item'],
  item_type: ['item', 'item_type'],
  build_trigger: ['build_trigger'],
  environment: null,
  environment_type: null,
};

const ENVIRONMENT_TYPES = ['primary', 'sandbox'];

const RULE_KEYS = new Set(['entity_type', 'event_types', 'filters', 'filter']);
const FILTER_KEYS = new Set(['entity_type', 'entity_ids']);

type Filter = { entity_type: string; entity_ids: string[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(map: Readonly<Record<string, unknown>>, key: string): boolean {
  return Object.hasOwn(map, key);
}

/** Why one filter object is unusable for this entity type, or null when it is fine. */
function filterProblem(entityType: string, filter: unknown): string | null {
  if (!isObject(filter)) return 'a filter must be an object';
  const unknownKey = Object.keys(filter).find((key) => !FILTER_KEYS.has(key));
  if (unknownKey !== undefined) return `unknown filter member "${unknownKey}"`;
  const type = filter.entity_type;
  if (typeof type !== 'string' || !has(FILTER_APPLIES_TO, type))
    return `unknown filter entity_type ${JSON.stringify(type)}`;
  const appliesTo = FILTER_APPLIES_TO[type];
  if (appliesTo && !appliesTo.includes(entityType))
    return `a "${type}" filter cannot restrict "${entityType}" events`;
  const ids = filter.entity_ids;
  if (!Array.isArray(ids) || ids.length === 0) return 'entity_ids must list at least one id';
  if (!ids.every((id) => typeof id === 'string' && id !== ''))
    return 'entity_ids must be non-empty strings';
  if (type === 'environment_type' && !ids.every((id) => ENVIRONMENT_TYPES.includes(id)))
    return 'environment_type ids must be "primary" or "sandbox"';
  return null;
}

/**
 * The filters of one rule: `filters` (array or null) as the official client sends it,
 * or the single legacy `filter` object, normalised to the array form.
 */
function normalizeFilters(
  rule: Record<string, unknown>,
): { filters: Filter[] | null } | { problem: string } {
  if (has(rule, 'filter') && has(rule, 'filters'))
    return { problem: 'send either "filters" or the legacy "filter", not both' };
  const raw = has(rule, 'filter')
    ? rule.filter === null
      ? null
      : [rule.filter]
    : (rule.filters ?? null);
  if (raw === null) return { filters: null };
  if (!Array.isArray(raw)) return { problem: 'filters must be an array or null' };
  const entityType = rule.entity_type as string;
  for (const filter of raw) {
    const problem = filterProblem(entityType, filter);
    if (problem) return { problem };
  }
  return {
    filters: (raw as Filter[]).map((f) => ({
      entity_type: f.entity_type,
      entity_ids: f.entity_ids,
    })),
  };
}

function ruleProblemOrValue(rule: unknown): WebhookEventRule | string {
  if (!isObject(rule)) return 'each event must be an object';
  const unknownKey = Object.keys(rule).find((key) => !RULE_KEYS.has(key));
  if (unknownKey !== undefined) return `unknown event member "${unknownKey}"`;
  const entityType = rule.entity_type;
  if (typeof entityType !== 'string' || !has(EVENT_TYPES_BY_ENTITY, entityType))
    return `unknown entity_type ${JSON.stringify(entityType)}`;
  const allowed = EVENT_TYPES_BY_ENTITY[entityType] ?? [];
  const eventTypes = rule.event_types;
  if (!Array.isArray(eventTypes) || eventTypes.length === 0)
    return `event_types of "${entityType}" must list at least one event`;
  const wrong = eventTypes.find((type) => typeof type !== 'string' || !allowed.includes(type));
  if (wrong !== undefined)
    return `"${entityType}" events are ${allowed.join(', ')} (got ${JSON.stringify(wrong)})`;
  const filters = normalizeFilters(rule);
  if ('problem' in filters) return filters.problem;
  return { entity_type: entityType, event_types: eventTypes as string[], ...filters };
}

/** Which list of one filter is too long, or null; ids are bounded like names. */
function filterSizeProblem(filter: unknown): string | null {
  const ids = isObject(filter) ? filter.entity_ids : undefined;
  if (!Array.isArray(ids)) return null;
  if (ids.length > MAX_IDS_PER_FILTER) return `entity_ids: at most ${MAX_IDS_PER_FILTER} ids`;
  if (ids.some((id) => typeof id === 'string' && id.length > MAX_NAME_LENGTH))
    return `entity_ids: each id must be at most ${MAX_NAME_LENGTH} characters`;
  return null;
}

/** Which list of one event rule is too long, or null; the shapes are checked afterwards. */
function ruleSizeProblem(rule: unknown): string | null {
  if (!isObject(rule)) return null;
  const { event_types: eventTypes, filters, filter } = rule;
  if (Array.isArray(eventTypes) && eventTypes.length > MAX_EVENT_TYPES_PER_EVENT)
    return `event_types: at most ${MAX_EVENT_TYPES_PER_EVENT} entries`;
  if (Array.isArray(filters) && filters.length > MAX_FILTERS_PER_EVENT)
    return `filters: at most ${MAX_FILTERS_PER_EVENT} filters`;
  const all = Array.isArray(filters) ? filters : [filter];
  for (const [index, entry] of all.entries()) {
    const problem = filterSizeProblem(entry);
    if (problem)
      return Array.isArray(filters) ? `filters[${index}].${problem}` : `filter.${problem}`;
  }
  return null;
}

/** Bounds every list in `events`, so a huge one is refused before it is walked. */
function eventsSizeProblem(events: unknown[]): string | null {
  if (events.length > MAX_EVENTS_PER_WEBHOOK) return `at most ${MAX_EVENTS_PER_WEBHOOK} events`;
  for (const [index, event] of events.entries()) {
    const problem = ruleSizeProblem(event);
    if (problem) return `events[${index}].${problem}`;
  }
  return null;
}

/** Checks `events` against the matrix; returns the rules as stored and emitted. */
export function checkEventRules(issues: Issues, events: unknown): WebhookEventRule[] {
  if (!Array.isArray(events)) {
    issues.add('events', 'VALIDATION_INVALID', 'must be an array of events');
    return [];
  }
  const sizeProblem = eventsSizeProblem(events);
  if (sizeProblem) {
    issues.add('events', 'VALIDATION_LENGTH', sizeProblem);
    return [];
  }
  const rules: WebhookEventRule[] = [];
  for (const [index, event] of events.entries()) {
    const result = ruleProblemOrValue(event);
    if (typeof result === 'string') {
      issues.add('events', 'VALIDATION_INVALID', `events[${index}]: ${result}`);
      return [];
    }
    rules.push(result);
  }
  return rules;
}
