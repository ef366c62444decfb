import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import type { ItemListQuery } from '../../../domain/items/query/list.ts';

/** A query string as qs parses it (the client flattens nested objects into `a[b]`). */
export type RawQuery = Record<string, unknown>;

export function text(query: RawQuery, key: string): string | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new DomainError('INVALID_PARAMS', `${key} must be a string`);
  return value;
}

/**
 * A page parameter: digits the database can take as a number (OFFSET and LIMIT are
 * bigints; past 2^53 a JavaScript number no longer holds the digits sent).
 */
export function integer(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number))
    throw new DomainError(
      'INVALID_PARAMS',
      `${name} must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}`,
      { field: name },
    );
  return number;
}

/** `filter[…]`, `page[…]` of `GET /items`. */
export function listQuery(query: RawQuery): ItemListQuery {
  const filter = (query.filter ?? {}) as RawQuery;
  const page = (query.page ?? {}) as RawQuery;
  return {
    type: text(filter, 'type'),
    ids: text(filter, 'ids'),
    fields: filter.fields,
    query: text(filter, 'query'),
    onlyValid: text(filter, 'only_valid'),
    orderBy: text(query, 'order_by'),
    version: text(query, 'version'),
    locale: text(query, 'locale'),
    nested: nested(query),
    offset: integer(page.offset, 'page[offset]'),
    limit: integer(page.limit, 'page[limit]'),
  };
}

/** A boolean query parameter, false when absent (the client sends booleans as text). */
function flag(query: RawQuery, key: string): boolean {
  const value = text(query, key);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new DomainError('INVALID_PARAMS', `${key} must be true or false`);
}

/** `nested=true` presents blocks whole. */
export function nested(query: RawQuery): boolean {
  return flag(query, 'nested');
}

/** `recursive=true` publishes unpublished parents too, or withdraws published children too. */
export function recursive(request: FastifyRequest): { recursive: boolean } {
  return { recursive: flag(request.query as RawQuery, 'recursive') };
}
