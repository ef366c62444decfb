import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/actor.ts';

/** The authenticated caller; the protocol hook guarantees one on every non-public route. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor)
    throw new Error(`route ${request.url} reached without an authenticated actor`);
  return request.actor;
}
