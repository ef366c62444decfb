import type { WebhookEventRule, WebhookRow } from '../../db/schema.ts';
import { Issues, type ValidationCode } from '../errors.ts';
import {
  MAX_CUSTOM_PAYLOAD_LENGTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_HEADERS_PER_WEBHOOK,
  MAX_NAME_LENGTH,
  MAX_URL_LENGTH,
} from '../limits.ts';
import { checkMaxLength, checkRequiredText } from '../text-checks.ts';
import { checkEventRules } from './event-rules.ts';
import { templateProblem, urlProblem } from './templates.ts';

export const PAYLOAD_API_VERSIONS = ['1', '2', '3'];

// RFC 7230 §3.2.6 `token`: the characters a header name may use.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// A header value may not break out of its line (no CR, LF or NUL).
const HEADER_VALUE = /^[^\r\n\0]*$/;

/** Everything a webhook is, minus what the database assigns. */
export type WebhookDraft = {
  name: string;
  url: string;
  custom_payload: string | null;
  headers: Record<string, unknown>;
  events: unknown[];
  http_basic_user: string | null;
  http_basic_password: string | null;
  enabled: boolean;
  payload_api_version: string;
  nested_items_in_payload: boolean;
  auto_retry: boolean;
};

/**
 * Attributes as the client sent them. `headers` and `events` arrive unchecked: their
 * problems are validation errors on the attribute, not malformed documents.
 */
export type WebhookAttributesInput = Partial<WebhookDraft>;

export type ValidWebhook = Omit<WebhookDraft, 'headers' | 'events'> & {
  headers: Record<string, string>;
  events: WebhookEventRule[];
};

/** The optional attributes' defaults; the required ones the client always sends. */
export const NEW_WEBHOOK: WebhookDraft = {
  name: '',
  url: '',
  custom_payload: null,
  headers: {},
  events: [],
  http_basic_user: null,
  http_basic_password: null,
  enabled: true,
  payload_api_version: '3',
  nested_items_in_payload: false,
  auto_retry: true,
};

export function draftOf(row: WebhookRow): WebhookDraft {
  return {
    name: row.name,
    url: row.url,
    custom_payload: row.custom_payload,
    headers: row.headers,
    events: row.events,
    http_basic_user: row.http_basic_user,
    http_basic_password: row.http_basic_password,
    enabled: row.enabled,
    payload_api_version: row.payload_api_version,
    nested_items_in_payload: row.nested_items_in_payload,
    auto_retry: row.auto_retry,
  };
}

/** Omitted attributes keep their value; `null` clears the nullable ones. */
export function applyWebhookInput(base: WebhookDraft, input: WebhookAttributesInput): WebhookDraft {
  const next = { ...base };
  for (const key of Object.keys(base) as (keyof WebhookDraft)[]) {
    const value = input[key];
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  return next;
}

type HeaderProblem = { code: ValidationCode; message: string };
const invalid = (message: string): HeaderProblem => ({ code: 'VALIDATION_INVALID', message });
const tooLong = (message: string): HeaderProblem => ({ code: 'VALIDATION_LENGTH', message });

function headerProblem(name: string, value: unknown): HeaderProblem | null {
  if (name.length > MAX_NAME_LENGTH)
    return tooLong(`header names must be at most ${MAX_NAME_LENGTH} characters`);
  if (!HEADER_NAME.test(name)) return invalid(`"${name}" is not a valid header name`);
  if (typeof value !== 'string') return invalid(`the value of "${name}" must be a string`);
  if (value.length > MAX_HEADER_VALUE_LENGTH)
    return tooLong(`the value of "${name}" must be at most ${MAX_HEADER_VALUE_LENGTH} characters`);
  if (!HEADER_VALUE.test(value)) return invalid(`the value of "${name}" must be one line`);
  return null;
}

function checkHeaders(issues: Issues, headers: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(headers);
  const lowerNames = new Set(entries.map(([name]) => name.toLowerCase()));
  const problem =
    entries.length > MAX_HEADERS_PER_WEBHOOK
      ? tooLong(`at most ${MAX_HEADERS_PER_WEBHOOK} headers`)
      : lowerNames.size < entries.length
        ? invalid('header names are case-insensitive: each may appear once')
        : entries.map(([name, value]) => headerProblem(name, value)).find((p) => p !== null);
  if (problem) issues.add('headers', problem.code, problem.message);
  return headers as Record<string, string>;
}

function checkUrl(issues: Issues, url: string): void {
  if (!checkRequiredText(issues, 'url', url, { maxLength: MAX_URL_LENGTH })) return;
  const problem = urlProblem(url);
  if (problem) issues.add('url', 'VALIDATION_FORMAT', problem);
}

function checkCustomPayload(issues: Issues, template: string | null): void {
  if (template === null) return;
  if (!checkMaxLength(issues, 'custom_payload', template, MAX_CUSTOM_PAYLOAD_LENGTH)) return;
  const problem = templateProblem(template);
  if (problem)
    issues.add(
      'custom_payload',
      'VALIDATION_INVALID',
      `is not a valid Mustache template: ${problem}`,
    );
}

function checkBasicAuth(issues: Issues, user: string | null, password: string | null): void {
  // RFC 7617: the user-id cannot contain a colon, it separates user from password.
  if (checkMaxLength(issues, 'http_basic_user', user, MAX_NAME_LENGTH) && user?.includes(':'))
    issues.add('http_basic_user', 'VALIDATION_FORMAT', 'must not contain ":"');
  checkMaxLength(issues, 'http_basic_password', password, MAX_NAME_LENGTH);
}

/** Checks the merged state, attribute by attribute in declaration order. */
export function validateWebhook(next: WebhookDraft, ctx: { nameTaken: boolean }): ValidWebhook {
  const issues = new Issues('Webhook');
  if (checkRequiredText(issues, 'name', next.name) && ctx.nameTaken)
    issues.add('name', 'VALIDATION_UNIQUENESS', 'is already taken');
  checkUrl(issues, next.url);
  checkCustomPayload(issues, next.custom_payload);
  const headers = checkHeaders(issues, next.headers);
  const events = checkEventRules(issues, next.events);
  checkBasicAuth(issues, next.http_basic_user, next.http_basic_password);
  if (!PAYLOAD_API_VERSIONS.includes(next.payload_api_version))
    issues.add(
      'payload_api_version',
      'VALIDATION_INCLUSION',
      `must be one of ${PAYLOAD_API_VERSIONS.join(', ')}`,
    );
  issues.throwIfAny();
  return { ...next, headers, events };
}
