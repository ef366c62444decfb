import { createHash } from 'node:crypto';
import { type DomainError, type ErrorCode, ValidationFailed } from '../domain/errors.ts';

/** The one table from error code to HTTP status. */
const STATUS: Record<ErrorCode, number> = {
  INVALID_FIELD: 422,
  INVALID_FORMAT: 422,
  INVALID_JSON_BODY: 400,
  INVALID_TYPE: 422,
  INVALID_ATTRIBUTES: 422,
  INVALID_PARAMS: 422,
  INVALID_FILTER_FIELDS_PARAM: 422,
  INVALID_RELATIONSHIP: 422,
  INVALID_ORDERING: 422,
  DUPLICATE_POSITIONS_FOUND: 422,
  NOT_FOUND: 404,
  INVALID_ENDPOINT: 404,
  INVALID_AUTHORIZATION_HEADER: 401,
  INVALID_SITE: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  INVALID_ACCEPT_HEADER: 406,
  INVALID_CONTENT_TYPE_HEADER: 415,
  INVALID_API_VERSION: 400,
  INVALID_ENVIRONMENT: 404,
  INVALID_X_INCLUDE_DRAFTS_HEADER: 422,
  INVALID_X_VISUAL_EDITING_HEADER: 422,
  RATE_LIMIT_EXCEEDED: 429,
  LIMIT_EXCEEDED: 422,
  REQUEST_BODY_TOO_LARGE: 413,
  // Requests refused before routing: an undecodable URL or malformed HTTP, a request
  // line plus headers over Node's 16 KB (a long query string lands here), a client too
  // slow to send its request.
  INVALID_REQUEST: 400,
  REQUEST_HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  ITEM_TYPE_CANNOT_BE_CHANGED: 422,
  INVALID_ORDERING_FOR_SORTABLE_ITEM_TYPE: 422,
  INVALID_ORDERING_FOR_SINGLETON_ITEM_TYPE: 422,
  MODULAR_BLOCK_IN_USE: 422,
  REQUIRED_BY_ASSOCIATION: 422,
  DUPLICATE_SINGLETON: 422,
  CANNOT_CREATE_OR_DESTROY_SCHEMA_MENU_ITEM_LINKED_TO_ITEM_TYPE: 422,
  KIND_CANNOT_BE_CHANGED: 422,
  NON_EDITABLE_ACCESS_TOKEN: 422,
  MISSING_LOCALES: 422,
  CLASHING_FIELD_LABELS: 422,
  STALE_ITEM_VERSION: 422,
  ITEM_TYPE_IS_SINGLETON: 422,
  UNPUBLISHED_PARENT: 422,
  PUBLISHED_CHILDREN: 422,
  MISSING_UPLOAD_IDS: 422,
  // DatoCMS's catalogue names these codes; the statuses are ours.
  MAINTENANCE_MODE: 423,
  ENVIRONMENT_IN_READ_ONLY_MODE: 423,
  ENVIRONMENT_NOT_READY: 422,
  CANNOT_DESTROY_PRIMARY_ENVIRONMENT: 422,
  CANNOT_DESTROY_FORKING_ORIGIN: 422,
  ALREADY_PRIMARY_ENVIRONMENT: 422,
  SERVICE_UNAVAILABLE: 503,
  EXCEPTION: 500,
};

/** Codes the client may retry by itself: it waits and repeats a request marked transient. */
const TRANSIENT = new Set<string>(['SERVICE_UNAVAILABLE']);

export type ApiErrorEntry = {
  id: string;
  type: 'api_error';
  attributes: {
    code: string;
    doc_url: string;
    details: Record<string, unknown>;
    transient?: true;
  };
};

export type ErrorDocument = { data: ApiErrorEntry[] };

// Stable per code, as the real API's ids are; the request id travels in X-Request-Id.
function errorId(code: string): string {
  return createHash('sha1').update(code).digest('hex').slice(0, 6);
}

function entry(code: string, details: Record<string, unknown>): ApiErrorEntry {
  return {
    id: errorId(code),
    type: 'api_error',
    attributes: {
      code,
      doc_url: `https://www.datocms.com/docs/content-management-api/errors#${code}`,
      details,
      ...(TRANSIENT.has(code) ? { transient: true as const } : {}),
    },
  };
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

export function errorDocument(error: DomainError): ErrorDocument {
  if (error instanceof ValidationFailed) {
    return {
      data: error.issues.map((issue) =>
        entry('INVALID_FIELD', { ...issue, record_type: error.recordType }),
      ),
    };
  }
  const details = { ...error.details };
  if (error.message && details.message === undefined) details.message = error.message;
  return { data: [entry(error.code, details)] };
}
