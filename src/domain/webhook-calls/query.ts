import type { WebhookCallStatus } from '../../db/schema.ts';
import { isRowId } from '../auth/row-id.ts';
import { DomainError } from '../errors.ts';
import { EVENT_TYPES_BY_ENTITY } from '../webhooks/event-rules.ts';

/** The raw `page`, `filter` and `order_by` parameters, as the query string parser left them. */
export type RawListQuery = {
  page?: { offset?: string; limit?: string };
  filter?: { ids?: string; fields?: unknown };
  order_by?: string;
};

export const ORDERS = [
  'webhook_id_asc',
  'webhook_id_desc',
  'created_at_asc',
  'created_at_desc',
  'last_sent_at_asc',
  'last_sent_at_desc',
  'next_retry_at_asc',
  'next_retry_at_desc',
] as const;

export type CallOrder = (typeof ORDERS)[number];
export type SortColumn = 'webhook_id' | 'created_at' | 'last_sent_at' | 'next_retry_at';
export type TimeColumn = 'created_at' | 'last_sent_at' | 'next_retry_at';

export type CallListQuery = {
  offset: number;
  limit: number;
  ids: string[] | null;
  equals: Partial<{
    webhook_id: string;
    entity_type: string;
    event_type: string;
    status: WebhookCallStatus;
  }>;
  ranges: { column: TimeColumn; op: 'gt' | 'lt'; at: Date }[];
  order: { column: SortColumn; direction: 'asc' | 'desc' };
};

const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 500;
const MAX_OFFSET = 999_999_999;
const STATUSES: readonly string[] = ['pending', 'success', 'failed', 'rescheduled'];
const ENTITY_TYPES = Object.keys(EVENT_TYPES_BY_ENTITY);
const EVENT_TYPES = [...new Set(Object.values(EVENT_TYPES_BY_ENTITY).flat())];

/** The values each `filter[fields][<field>][eq]` may take; null = any row id. */
const EQUALS_FIELDS: Readonly<Record<string, readonly string[] | null>> = {
  webhook_id: null,
  entity_type: ENTITY_TYPES,
  event_type: EVENT_TYPES,
  status: STATUSES,
};
const TIME_FIELDS: readonly string[] = ['created_at', 'last_sent_at', 'next_retry_at'];

/** `field`: the parameter refused, when one is (as the edge names a parameter it refuses). */
function badParam(message: string, field?: string): DomainError {
  return new DomainError('INVALID_PARAMS', message, field === undefined ? undefined : { field });
}

function badFilterField(message: string): DomainError {
  return new DomainError('INVALID_FILTER_FIELDS_PARAM', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function integerParam(
  name: string,
  raw: string | undefined,
  fallback: number,
  range: { min: number; max: number },
): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < range.min || Number(raw) > range.max)
    throw badParam(`${name} must be an integer between ${range.min} and ${range.max}`, name);
  return Number(raw);
}

function parseIds(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const ids = raw.split(',').filter((id) => id !== '');
  if (!ids.every(isRowId)) throw badParam('filter[ids] must be comma-separated webhook call ids');
  return ids;
}

/** One `filter[fields][<field>]` member: an operator object with a string value. */
function operators(field: string, raw: unknown, allowed: readonly string[]) {
  if (!isObject(raw)) throw badFilterField(`filter[fields][${field}] must name an operator`);
  const entries = Object.entries(raw);
  for (const [op, value] of entries) {
    if (!allowed.includes(op))
      throw badFilterField(
        `filter[fields][${field}] supports ${allowed.map((o) => `[${o}]`).join(', ')}, not [${op}]`,
      );
    if (typeof value !== 'string')
      throw badParam(`filter[fields][${field}][${op}] must be a single value`);
  }
  return entries as [string, string][];
}

function parseFields(raw: unknown): Pick<CallListQuery, 'equals' | 'ranges'> {
  const result: Pick<CallListQuery, 'equals' | 'ranges'> = { equals: {}, ranges: [] };
  if (raw === undefined) return result;
  if (!isObject(raw)) throw badFilterField('filter[fields] must be an object of fields');
  for (const [field, value] of Object.entries(raw)) {
    if (Object.hasOwn(EQUALS_FIELDS, field)) {
      const allowedValues = EQUALS_FIELDS[field];
      for (const [, eq] of operators(field, value, ['eq'])) {
        const valid = allowedValues ? allowedValues.includes(eq) : isRowId(eq);
        if (!valid)
          throw badParam(`filter[fields][${field}][eq]: ${JSON.stringify(eq)} is invalid`);
        (result.equals as Record<string, string>)[field] = eq;
      }
    } else if (TIME_FIELDS.includes(field)) {
      for (const [op, at] of operators(field, value, ['gt', 'lt'])) {
        const date = new Date(at);
        if (Number.isNaN(date.getTime()))
          throw badParam(`filter[fields][${field}][${op}] must be an ISO 8601 date-time`);
        result.ranges.push({ column: field as TimeColumn, op: op as 'gt' | 'lt', at: date });
      }
    } else {
      throw badFilterField(
        `filter[fields] supports ${[...Object.keys(EQUALS_FIELDS), ...TIME_FIELDS].join(', ')}, not "${field}"`,
      );
    }
  }
  return result;
}

function parseOrder(raw: string | undefined): CallListQuery['order'] {
  const order = raw ?? 'created_at_desc';
  if (!(ORDERS as readonly string[]).includes(order))
    throw badParam(`order_by must be one of ${ORDERS.join(', ')}`);
  const direction = order.endsWith('_asc') ? 'asc' : 'desc';
  return { column: order.slice(0, order.lastIndexOf('_')) as SortColumn, direction };
}

/** Checks the list parameters of the webhook call log; nothing reaches SQL unchecked. */
export function parseListQuery(raw: RawListQuery): CallListQuery {
  return {
    offset: integerParam('page[offset]', raw.page?.offset, 0, { min: 0, max: MAX_OFFSET }),
    limit: integerParam('page[limit]', raw.page?.limit, DEFAULT_LIMIT, { min: 1, max: MAX_LIMIT }),
    ids: parseIds(raw.filter?.ids),
    ...parseFields(raw.filter?.fields),
    order: parseOrder(raw.order_by),
  };
}
