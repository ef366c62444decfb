import { DomainError } from './errors.ts';

/**
 * Every bound on what a client can send, in one place, so no client can bloat the
 * database or the payloads. docs/limits.md lists them for operators.
 */

// Lengths of single strings (VALIDATION_LENGTH on the attribute).
/** Names, labels, titles, stage ids, enum values, basic-auth credentials, header names, ids. */
export const MAX_NAME_LENGTH = 255;
export const MAX_API_KEY_LENGTH = 64;
/** Hints and descriptions. */
export const MAX_HINT_LENGTH = 10_000;
export const MAX_URL_LENGTH = 2048;
export const MAX_CUSTOM_PAYLOAD_LENGTH = 64 * 1024;
export const MAX_HEADER_VALUE_LENGTH = 8192;
/** A field's validators, appearance and default value, each measured as JSON. */
export const MAX_FIELD_JSON_LENGTH = 64 * 1024;

// Sizes of collections inside one document (VALIDATION_LENGTH on the attribute).
export const MAX_HEADERS_PER_WEBHOOK = 50;
export const MAX_EVENTS_PER_WEBHOOK = 50;
export const MAX_EVENT_TYPES_PER_EVENT = 20;
export const MAX_FILTERS_PER_EVENT = 20;
export const MAX_IDS_PER_FILTER = 1000;
export const MAX_ENUM_VALUES = 1000;
/** Positions are kept as sent; this keeps them, and their shifts, in an int4. */
export const MAX_POSITION = 1_000_000;
export const MAX_LOCALES = 100;
export const MAX_WORKFLOW_STAGES = 50;
export const MAX_PERMISSIONS_PER_LIST = 1000;
/**
 * Levels a record's content nests: structured text nodes within one document, and blocks
 * within blocks, a block counting one level plus the depth of the structured text node
 * naming it (DatoCMS documents 5 levels of blocks). Deeper content is refused
 * (INVALID_FIELD), and every walk over stored content stops here.
 */
export const MAX_NESTING_DEPTH = 64;
/**
 * A `matches` filter pattern (filter-pattern.ts): its length, and its size with every
 * counted repetition written out (PostgreSQL compiles `x{n}` into n copies of x, and the
 * embedded engine cannot interrupt a compile or a match once it started).
 */
export const MAX_FILTER_PATTERN_LENGTH = 1000;
export const MAX_FILTER_PATTERN_SIZE = 2000;
/** PostgreSQL's `statement_timeout` for the statements that run `matches` patterns. */
export const FILTER_PATTERN_TIMEOUT_MS = 5000;
/**
 * Value indexes (items/query/value-indexes.ts) an environment builds on first use: each
 * one is work for every record write of its model, and lists choose which values get one,
 * so past this many a list runs without a new one (same rows, read by a scan).
 */
export const MAX_VALUE_INDEXES = 200;
/** Records named by one bulk operation: DatoCMS's documented maximum (refused by the body's schema). */
export const MAX_RECORDS_PER_BULK = 200;

// What one process holds for record reads: records are up to the 1 MiB body limit each, so
// a count alone (page[limit] ≤ 500) would let one page take hundreds of MB.
/**
 * The records of one list page (their values as JSON text, blocks inline when nested), so
 * the iterator's default page of 30 fits even at the largest records a client can send.
 * A page of one record is served whatever its size.
 */
export const MAX_PAGE_BYTES = 32 * 1024 * 1024;
/**
 * Record bytes all of a process's list reads hold at once, from loading to the end of the
 * response: past it a read is refused with 429 (the official client waits and retries).
 * A read alone is always admitted, so any page within MAX_PAGE_BYTES is served.
 */
export const MAX_READ_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

/**
 * Counts a project grows to over many requests (LIMIT_EXCEEDED). The design's growth
 * target is 1,000 models × 30 fields; these leave headroom above it.
 */
export const COUNT_LIMITS = {
  item_types: 2000,
  fields_per_item_type: 400,
  fieldsets_per_item_type: 100,
  webhooks: 200,
  // Every model also gets a menu and a schema-menu entry: room for them plus folders.
  menu_items: 5000,
  schema_menu_items: 5000,
} as const;

/** Longest list a link validator can name: every model of the project. */
export const MAX_VALIDATOR_ITEM_TYPES = COUNT_LIMITS.item_types;

export type CountLimit = keyof typeof COUNT_LIMITS;

/**
 * Refuses to add `adding` more when `count` already leaves no room under the limit.
 * Callers read `count` inside the transaction that serialises these writes.
 */
export function checkRoomFor(limit: CountLimit, count: number, adding = 1): void {
  const max = COUNT_LIMITS[limit];
  if (count + adding <= max) return;
  throw new DomainError(
    'LIMIT_EXCEEDED',
    `at most ${max} ${limit.replaceAll('_', ' ')} (there are ${count})`,
    { limit, max, count },
  );
}
