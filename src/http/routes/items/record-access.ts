import type { FastifyRequest } from 'fastify';
import type { CallerToken } from '../../../domain/actor.ts';
import { assertMayOnItems, assertMayOnVersion } from '../../../domain/items/access/access.ts';
import { recordGate } from '../../../domain/items/access/record-gate.ts';
import { actorOf } from '../../actor.ts';
import { recursive } from './params.ts';

// What a record route asks of the caller's role, from the action the route declares in
// its config (`itemAction`): judged before the request is read, and again, through the
// gate, on the records a write finds inside its transaction.

export type Params = { Params: { id: string } };

export const READ = { itemAction: 'read' } as const;
export const CREATE = { resourceType: 'item', itemAction: 'create' } as const;
export const UPDATE = { resourceType: 'item', itemAction: 'update' } as const;
// A record create or update is one change, which checks the token's access version
// itself: the request need not read its token first (plugins/assumed-token.ts). So are a
// publish, an unpublish and a destroy (their routes say so).
export const CREATE_CHANGE = { ...CREATE, checksTokenInChange: true } as const;
export const UPDATE_CHANGE = { ...UPDATE, checksTokenInChange: true } as const;

/** The action the route declares; a route that forgot it is a programming error. */
function actionOf(request: FastifyRequest<Params>) {
  const action = request.routeOptions.config.itemAction;
  if (!action) throw new Error(`${request.url}: a record route without itemAction`);
  return action;
}

/** The record the route names, checked against the route's action. */
export function mayOnRecord(request: FastifyRequest<Params>): Promise<void> {
  return assertMayOnItems(actorOf(request), request.scope, { action: actionOf(request) }, [
    request.params.id,
  ]);
}

/** The version the route names, checked against the route's action on its record. */
export function mayOnVersion(request: FastifyRequest<Params>): Promise<void> {
  return assertMayOnVersion(actorOf(request), request.scope, actionOf(request), request.params.id);
}

/**
 * The gate a write calls inside its transaction on the records it changes, as it finds
 * them there (a role without the action at all was refused before the request was read).
 */
export function gateOf(request: FastifyRequest<Params>) {
  return recordGate(actorOf(request), { action: actionOf(request) });
}

/** Publishing options: `recursive`, and the gate for the record and the tree records changed along with it. */
export function treeOptions(request: FastifyRequest<Params>) {
  return { ...recursive(request), gate: gateOf(request) };
}

/** The caller's token: a record the request creates names it as its creator. */
export function callerTokenOf(request: FastifyRequest): CallerToken | null {
  return request.actor?.token ?? null;
}

/** The caller's token id: a version the request writes names it as its editor. */
export function editorOf(request: FastifyRequest): string | null {
  return request.actor?.token.id ?? null;
}
