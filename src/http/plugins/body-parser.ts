import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';

const JSON_TYPES = ['application/json', 'application/vnd.api+json'];

/**
 * JSON bodies under either media type. An empty body is no body: the official client
 * sends `Content-Type: application/json` on body-less POST and DELETE requests.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      // Drop `__proto__` keys so no later merge of the body can reach a prototype.
      const parsed = JSON.parse(text, (key, value) => (key === '__proto__' ? undefined : value));
      done(null, parsed);
    } catch (error) {
      done(
        new DomainError(
          'INVALID_JSON_BODY',
          `The body is not valid JSON: ${(error as Error).message}`,
        ),
        undefined,
      );
    }
  });
  app.addContentTypeParser('*', (request, payload, done) => {
    // A body-less request may carry any content type; a body must be JSON.
    if (
      request.headers['content-length'] === '0' ||
      (request.headers['content-length'] === undefined && !request.headers['transfer-encoding'])
    ) {
      payload.resume();
      return done(null, undefined);
    }
    done(
      new DomainError(
        'INVALID_CONTENT_TYPE_HEADER',
        `Content-Type must be one of ${JSON_TYPES.join(', ')}`,
      ),
      undefined,
    );
  });
}
