import type { FastifyError, FastifyInstance } from 'fastify';
import { isVanishedEnvironmentError } from '../../db/environment-scope.ts';
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
  return null;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const domainError = toDomainError(error, request.routeOptions.bodyLimit);
    if (domainError) {
      return reply.status(statusOf(domainError.code)).send(errorDocument(domainError));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(errorDocument(new DomainError('EXCEPTION', 'An unexpected error occurred')));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new DomainError(
      'INVALID_ENDPOINT',
      `No endpoint ${request.method} ${request.url.split('?')[0]}`,
    );
    return reply.status(statusOf('INVALID_ENDPOINT')).send(errorDocument(error));
  });
}
