import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { findUnstorableText } from '../unstorable-text.ts';

const JSON_TYPES = ['application/json', 'application/vnd.api+json'];

/**
 * `fatal`: bytes that are not UTF-8 refuse the body instead of becoming U+FFFD, which
 * would store text the client never sent. `ignoreBOM`: a byte-order mark stays in the
 * text, where JSON.parse refuses it, as it did before.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw new DomainError('INVALID_JSON_BODY', 'The body is not valid UTF-8');
  }
}

/**
 * Drops `__proto__` keys so no later merge of the body can reach a prototype. JSON.parse
 * makes such a key an own property (harmless in itself); a walk with an explicit stack,
 * not a reviver, removes it, so a body nested thousands of levels deep cannot overflow
 * the call stack and be refused as if it were not JSON.
 */
function dropProtoKeys(document: unknown): void {
  const stack: unknown[] = [document];
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (typeof value !== 'object' || value === null) continue;
    if (Object.hasOwn(value, '__proto__')) Reflect.deleteProperty(value, '__proto__');
    for (const item of Object.values(value)) stack.push(item);
  }
}

function parse(text: string): unknown {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new DomainError(
      'INVALID_JSON_BODY',
      `The body is not valid JSON: ${(error as Error).message}`,
    );
  }
  // Only a text naming `__proto__`, plainly or through a \u escape, can hold that key:
  // nearly every body skips the walk.
  if (text.includes('__proto__') || text.includes('\\u')) dropProtoKeys(document);
  return document;
}

/**
 * Strict UTF-8 text holds neither NUL inside a JSON string (JSON forbids raw control
 * characters there) nor lone surrogates, so only these escapes can produce them: a body
 * without one (nearly every body) skips the walk over the parsed document.
 */
const SUSPECT_ESCAPE = /\\u(0000|[dD][89abcdefABCDEF])/;

/** Refused here, at the edge, so no route, service or query ever sees such text. */
function refuseUnstorableText(text: string, document: unknown): void {
  if (!SUSPECT_ESCAPE.test(text)) return;
  const found = findUnstorableText(document, 'dotted');
  if (!found) return;
  throw new DomainError('INVALID_FIELD', `${found.path} ${found.problem}`, {
    field: found.path,
    code: 'VALIDATION_FORMAT',
  });
}

/**
 * JSON bodies under either media type. An empty body is no body: the official client
 * sends `Content-Type: application/json` on body-less POST and DELETE requests.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      const text = decode(body as Buffer);
      if (text.trim() === '') return done(null, undefined);
      const document = parse(text);
      refuseUnstorableText(text, document);
      done(null, document);
    } catch (error) {
      done(error as DomainError, undefined);
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
