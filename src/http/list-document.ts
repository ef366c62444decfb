import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** Bytes the stream buffers ahead of the socket: a few records at most. */
const HIGH_WATER_MARK = 64 * 1024;

/**
 * Sends `{ "data": [...], ...rest }` one resource at a time instead of as one string: a
 * page of large records is never also held as a whole JSON text (and its buffer), and
 * each resource is let go once it is written. Consumes `data`.
 */
export function sendListDocument(
  reply: FastifyReply,
  data: unknown[],
  rest: Record<string, unknown>,
): FastifyReply {
  function* chunks(): Generator<string> {
    yield '{"data":[';
    for (let index = 0; index < data.length; index++) {
      yield (index === 0 ? '' : ',') + JSON.stringify(data[index]);
      data[index] = undefined;
    }
    yield ']';
    for (const [key, value] of Object.entries(rest))
      yield `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
    yield '}';
  }
  return reply
    .type('application/json; charset=utf-8')
    .send(Readable.from(chunks(), { objectMode: false, highWaterMark: HIGH_WATER_MARK }));
}
