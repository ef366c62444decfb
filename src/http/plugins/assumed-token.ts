import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Db } from '../../db/client.ts';
import { accessMovedSinceRequest, movedSinceRequest } from '../../db/environment-entry.ts';
import { DomainError } from '../../domain/errors.ts';
import { errorDocument, statusOf } from '../errors.ts';
import { admit } from './protocol.ts';

// A route marked `checksTokenInChange` may run on the last token answer this process read
// instead of reading it (domain/auth/assumed-access.ts): its change checks, with its entry,
// that no token or role changed since. Nothing is answered on that answer until the check
// has passed and the change committed (`access.confirmed`):
//
// - the handler failed before that (the check itself, an environment moved since, or any
//   refusal): nothing was committed, so the route runs again on the token read afresh;
//   any other failure (a lost connection, a bug) is answered as it is, never run twice;
// - the handler answered without committing a change: it runs again the same way;
// - the request is answered before its handler ran (a malformed body): the token is read
//   afresh first, and its refusal, if any, is the answer.

/** Wraps the handler of every route marked `checksTokenInChange`; see above. */
export function registerAssumedTokenRoutes(app: FastifyInstance, db: Db): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.checksTokenInChange !== true) return;
    route.handler = confirmingToken(route.handler, db);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const access = request.scope?.access;
    if (!access || access.confirmed) return payload;
    const refusal = await refusalOnFreshToken(request, reply, db);
    if (!refusal) return payload;
    reply.status(statusOf(refusal.code));
    return JSON.stringify(errorDocument(refusal));
  });
}

function confirmingToken(handler: RouteHandlerMethod, db: Db): RouteHandlerMethod {
  return async function (this: FastifyInstance, request, reply) {
    const access = request.scope.access;
    if (!access) return handler.call(this, request, reply);
    try {
      const answer = await handler.call(this, request, reply);
      // Sent by the handler itself: onSend has read the token afresh already.
      if (access.confirmed || reply.sent) return answer;
    } catch (error) {
      if (access.confirmed || !committedNothing(error)) throw error;
    }
    await admit(request, reply, db, false);
    return handler.call(this, request, reply);
  };
}

/** Failures that come before a change commits: refusals and the entry's own checks. */
function committedNothing(error: unknown): boolean {
  return error instanceof DomainError || movedSinceRequest(error) || accessMovedSinceRequest(error);
}

async function refusalOnFreshToken(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Db,
): Promise<DomainError | null> {
  try {
    await admit(request, reply, db, false);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}
