import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isVanishedEnvironmentError } from '../../db/environment-scope.ts';
import { isConcurrencyConflict } from '../../db/transaction.ts';
import { DomainError } from '../../domain/errors.ts';
import { errorDocument, statusOf } from '../errors.ts';

type AjvError = { instancePath: string; message?: string; params?: Record<string, unknown> };

function describe(error: AjvError): string {
  const path = error.instancePath || '/';
  const extra = error.params?.additionalProperty;
  const allowed = error.params?.allowedValues as unknown[] | undefined;
  if (extra !== undefined) return `${path}: unknown attribute "${String(extra)}"`;
  if (allowed) return `${path}: must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${path}: ${error.message ?? 'is invalid'}`;
}

/** Turns a Fastify-level failure into the domain error the API reports for it. */
function toDomainError(error: FastifyError, bodyLimit: number): DomainError | null {
  if (error instanceof DomainError) return error;
  if (isVanishedEnvironmentError(error)) {
    return new DomainError('INVALID_ENVIRONMENT', 'The environment was destroyed');
  }
  if (isConcurrencyConflict(error)) {
    // Nothing was written (the transaction rolled back): SERVICE_UNAVAILABLE is transient,
    // so the official client repeats the request by itself.
    return new DomainError(
      'SERVICE_UNAVAILABLE',
      'A concurrent change conflicted with this one; nothing was changed, retry the request',
    );
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new DomainError(
      'REQUEST_BODY_TOO_LARGE',
      `The request body is larger than the limit of ${bodyLimit} bytes`,
      { max_bytes: bodyLimit },
    );
  }
  if (error.validation) {
    const messages = (error.validation as AjvError[]).map(describe);
    return error.validationContext === 'body'
      ? new DomainError('INVALID_FORMAT', messages.join('; '), { messages })
      : new DomainError('INVALID_PARAMS', messages.join('; '), { messages });
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new DomainError('INVALID_CONTENT_TYPE_HEADER', 'Content-Type must be application/json');
  }
  if (
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
  ) {
    return new DomainError('INVALID_JSON_BODY', 'The body is not valid JSON');
  }
  return frameworkRefusal(error);
}

/**
 * Fastify's own refusals of a malformed request (a bad Content-Length, an undecodable
 * URL, an over-long path id, …), which it would otherwise answer in its own shape.
 */
function frameworkRefusal(error: FastifyError): DomainError | null {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // No resource has an id that long, as with any other id that names nothing.
    return new DomainError('NOT_FOUND', 'A path parameter is longer than any id');
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return new DomainError('INVALID_REQUEST', 'The URL path has an invalid percent-escape');
  }
  const status = error.statusCode ?? 500;
  if (error.code?.startsWith('FST_ERR_') && status >= 400 && status < 500) {
    return new DomainError('INVALID_REQUEST', error.message, { reason: error.code });
  }
  return null;
}

/** A refusal is the client's doing: logged without a stack, below error level. */
function sendRefusal(request: FastifyRequest, reply: FastifyReply, error: DomainError) {
  request.log.info({ code: error.code, reason: error.message }, 'request refused');
  return reply.status(statusOf(error.code)).send(errorDocument(error));
}

function sendUnexpected(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  request.log.error({ err: error }, 'unhandled error');
  return reply
    .status(statusOf('EXCEPTION'))
    .send(errorDocument(new DomainError('EXCEPTION', 'An unexpected error occurred')));
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const domainError = toDomainError(error, request.routeOptions.bodyLimit);
    if (domainError) return sendRefusal(request, reply, domainError);
    return sendUnexpected(request, reply, error);
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new DomainError(
      'INVALID_ENDPOINT',
      `No endpoint ${request.method} ${request.url.split('?')[0]}`,
    );
    return reply.status(statusOf('INVALID_ENDPOINT')).send(errorDocument(error));
  });
}

/**
 * Fastify's `frameworkErrors`: failures met while routing, before any hook runs (so
 * the request id header is set here).
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header('x-request-id', request.id);
  const refusal = frameworkRefusal(error);
  if (refusal) sendRefusal(request, reply, refusal);
  else sendUnexpected(request, reply, error);
}

/** Node's HTTP parser failures: the socket is all there is, so the answer is written raw. */
function clientErrorOf(error: NodeJS.ErrnoException): DomainError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new DomainError(
      'REQUEST_HEADERS_TOO_LARGE',
      'The request line and headers (a query string included) exceed 16 KB',
    );
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new DomainError('REQUEST_TIMEOUT', 'The request was not received in time');
  }
  return new DomainError('INVALID_REQUEST', 'The request is not valid HTTP', {
    reason: error.code ?? 'unknown',
  });
}

/** Fastify's `clientErrorHandler`, called with the server instance as `this`. */
export function clientErrorHandler(
  this: FastifyInstance,
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = clientErrorOf(error);
  const status = statusOf(refusal.code);
  const body = JSON.stringify(errorDocument(refusal));
  this.log.info({ code: refusal.code, reason: error.code }, 'request refused by the HTTP parser');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
