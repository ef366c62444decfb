import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallerToken } from '../../domain/actor.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  assertMayCreate,
  assertMayOnItems,
  assertMayOnVersion,
  readableOnly,
} from '../../domain/items/access/access.ts';
import { readableRecords } from '../../domain/items/access/readable-records.ts';
import { newRecordGate, recordGate } from '../../domain/items/access/record-gate.ts';
import { findItem } from '../../domain/items/find-item.ts';
import { publicationState } from '../../domain/items/publishing/publication-state.ts';
import {
  contentSelectionOf,
  publishItem,
  unpublishItem,
} from '../../domain/items/publishing/publishing.ts';
import {
  DEFAULT_PAGE_LIMIT,
  type ItemListQuery,
  listItems,
  MAX_PAGE_LIMIT,
} from '../../domain/items/query/list.ts';
import { itemReferences } from '../../domain/items/references.ts';
import { findVersion, listVersions, restoreVersion } from '../../domain/items/versions/versions.ts';
import { type BulkAction, bulkItems, bulkMoveToStage } from '../../domain/items/writes/bulk.ts';
import { createItem } from '../../domain/items/writes/create-item.ts';
import { destroyItem } from '../../domain/items/writes/destroy-item.ts';
import { duplicateItem } from '../../domain/items/writes/duplicate.ts';
import { updateItem } from '../../domain/items/writes/update-item.ts';
import { presentBulkResult, presentItem } from '../../presenters/item.ts';
import { presentPublicationStateView } from '../../presenters/item-publication-state.ts';
import { presentItemType } from '../../presenters/item-type.ts';
import { presentItemVersion } from '../../presenters/item-version.ts';
import { presentKept } from '../../presenters/kept.ts';
import { actorOf } from '../actor.ts';
import { sendListDocument } from '../list-document.ts';
import { readBudget } from '../read-budget.ts';
import { sendResult } from '../respond.ts';
import {
  BulkItemsDocument,
  DuplicatedItemDocument,
  ItemDocument,
  ItemList,
  ItemVersionDocument,
  ItemVersionList,
  PublicationStateDocument,
} from '../responses/records.ts';
import { NoContent, OrJob } from '../schemas/documents.ts';
import {
  BulkItemsBody,
  BulkMoveToStageBody,
  CreateItemBody,
  ItemQuery,
  ItemVersionsQuery,
  ListItemsQuery,
  PublishItemBody,
  RecursiveQuery,
  UnpublishItemBody,
  UpdateItemBody,
} from '../schemas/item.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type RawQuery = Record<string, unknown>;

function text(query: RawQuery, key: string): string | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new DomainError('INVALID_PARAMS', `${key} must be a string`);
  return value;
}

/**
 * A page parameter: digits the database can take as a number (OFFSET and LIMIT are
 * bigints; past 2^53 a JavaScript number no longer holds the digits sent).
 */
function integer(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number))
    throw new DomainError(
      'INVALID_PARAMS',
      `${name} must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}`,
      { field: name },
    );
  return number;
}

/** `filter[…]`, `page[…]` as qs parses them (the client flattens nested objects). */
function listQuery(query: RawQuery): ItemListQuery {
  const filter = (query.filter ?? {}) as RawQuery;
  const page = (query.page ?? {}) as RawQuery;
  return {
    type: text(filter, 'type'),
    ids: text(filter, 'ids'),
    fields: filter.fields,
    query: text(filter, 'query'),
    onlyValid: text(filter, 'only_valid'),
    orderBy: text(query, 'order_by'),
    version: text(query, 'version'),
    locale: text(query, 'locale'),
    nested: nested(query),
    offset: integer(page.offset, 'page[offset]'),
    limit: integer(page.limit, 'page[limit]'),
  };
}

/** A boolean query parameter, false when absent (the client sends booleans as text). */
function flag(query: RawQuery, key: string): boolean {
  const value = text(query, key);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new DomainError('INVALID_PARAMS', `${key} must be true or false`);
}

/** `nested=true` presents blocks whole. */
function nested(query: RawQuery): boolean {
  return flag(query, 'nested');
}

type CreateRequest = { Body: Static<typeof CreateItemBody> };

/** `recursive=true` publishes unpublished parents too, or withdraws published children too. */
function recursive(request: FastifyRequest): { recursive: boolean } {
  return { recursive: flag(request.query as RawQuery, 'recursive') };
}

/** The caller's token: a record the request creates names it as its creator. */
function callerTokenOf(request: FastifyRequest): CallerToken | null {
  return request.actor?.token ?? null;
}

/** The caller's token id: a version the request writes names it as its editor. */
function editorOf(request: FastifyRequest): string | null {
  return request.actor?.token.id ?? null;
}

export async function itemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const read = { itemAction: 'read' } as const;
  const create = { resourceType: 'item', itemAction: 'create' } as const;
  const update = { resourceType: 'item', itemAction: 'update' } as const;
  /** The action the route declares; a route that forgot it is a programming error. */
  const actionOf = (request: FastifyRequest<Params>) => {
    const action = request.routeOptions.config.itemAction;
    if (!action) throw new Error(`${request.url}: a record route without itemAction`);
    return action;
  };
  /** The record (or version) the route names, checked against the route's action. */
  const mayOnRecord = (request: FastifyRequest<Params>) =>
    assertMayOnItems(actorOf(request), request.scope, { action: actionOf(request) }, [
      request.params.id,
    ]);
  /**
   * The gate a write calls inside its transaction on the records it changes, as it finds
   * them there (a role without the action at all was refused before the request was read).
   */
  const gateOf = (request: FastifyRequest<Params>) =>
    recordGate(actorOf(request), { action: actionOf(request) });
  /** Publishing options: `recursive`, and the gate for the record and the tree records changed along with it. */
  const treeOptions = (request: FastifyRequest<Params>) => ({
    ...recursive(request),
    gate: gateOf(request),
  });
  const mayOnVersion = (request: FastifyRequest<Params>) =>
    assertMayOnVersion(actorOf(request), request.scope, actionOf(request), request.params.id);

  // Lists are not refused: they show the records the role may read.
  // A page's records take their bytes from the process's read budget until it is sent.
  app.get(
    '/items',
    { schema: { parsedQuerystring: ListItemsQuery, response: { 200: ItemList } } },
    async (request, reply) => {
      const readable = await readableRecords(actorOf(request), request.scope);
      const { records, total } = await listItems(
        request.scope,
        listQuery(request.query as RawQuery),
        readable,
        { admit: readBudget.admitFor(reply) },
      );
      return sendListDocument(reply, records.map(presentItem), { meta: { total_count: total } });
    },
  );

  app.get<Params>(
    '/items/:id',
    { schema: { parsedQuerystring: ItemQuery, response: { 200: ItemDocument } }, config: read },
    async (request) => {
      await mayOnRecord(request);
      const record = await findItem(request.scope, request.params.id, {
        version: text(request.query as RawQuery, 'version'),
        nested: nested(request.query as RawQuery),
      });
      // A record kept by the record cache is presented once, as its JSON is made once.
      return { data: presentKept(record, presentItem) };
    },
  );

  app.get<Params>(
    '/items/:id/current-vs-published-state',
    { schema: { response: { 200: PublicationStateDocument } }, config: read },
    async (request) => {
      await mayOnRecord(request);
      return presentPublicationStateView(await publicationState(request.scope, request.params.id));
    },
  );

  app.get<Params>(
    '/items/:id/references',
    { schema: { response: { 200: ItemList } }, config: read },
    async (request) => {
      await mayOnRecord(request);
      const references = await itemReferences(request.scope, request.params.id);
      // Only the referencing records the role may read are shown.
      const readable = await readableOnly(actorOf(request), request.scope, references);
      return { data: readable.map(presentItem) };
    },
  );

  /**
   * A create of the body's record, the role's right to create records of its model judged
   * first and the values it gives inside the transaction. Validating names no id (nothing
   * is kept) and takes no meta.
   */
  const createOf = async (request: FastifyRequest<CreateRequest>, validateOnly: boolean) => {
    const { data } = request.body;
    const actor = actorOf(request);
    const itemType = data.relationships?.item_type.data?.id;
    const attributes = data.attributes ?? {};
    await assertMayCreate(actor, request.scope, itemType);
    return createItem(
      request.scope,
      callerTokenOf(request),
      validateOnly
        ? { itemType, attributes, meta: {} }
        : { id: data.id, itemType, attributes, meta: data.meta ?? {} },
      { validateOnly, gate: newRecordGate(actor) },
    );
  };

  app.post<CreateRequest>(
    '/items',
    { schema: { body: CreateItemBody, response: { 201: ItemDocument } }, config: create },
    async (request, reply) =>
      reply.status(201).send({ data: presentItem(await createOf(request, false)) }),
  );

  // Validation without saving: every check of the write, then a rollback (204 when valid).
  app.post<CreateRequest>(
    '/items/validate',
    { schema: { body: CreateItemBody, response: { 204: NoContent } }, config: create },
    async (request, reply) => {
      await createOf(request, true);
      return reply.status(204).send();
    },
  );

  app.post<Params & { Body: Static<typeof UpdateItemBody> }>(
    '/items/:id/validate',
    { schema: { body: UpdateItemBody, response: { 204: NoContent } }, config: update },
    async (request, reply) => {
      const data = request.body.data;
      await updateItem(
        request.scope,
        editorOf(request),
        request.params.id,
        {
          itemType: data.relationships?.item_type?.data?.id,
          attributes: data.attributes ?? {},
          meta: {},
        },
        { validateOnly: true, gate: gateOf(request) },
      );
      return reply.status(204).send();
    },
  );

  app.put<Params & { Body: Static<typeof UpdateItemBody> }>(
    '/items/:id',
    { schema: { body: UpdateItemBody, response: { 200: ItemDocument } }, config: update },
    async (request) => {
      const data = request.body.data;
      const itemType = data.relationships?.item_type?.data?.id;
      const entity = await updateItem(
        request.scope,
        editorOf(request),
        request.params.id,
        { itemType, attributes: data.attributes ?? {}, meta: data.meta ?? {} },
        { gate: gateOf(request) },
      );
      return { data: presentItem(entity) };
    },
  );

  app.delete<Params>(
    '/items/:id',
    {
      schema: { response: OrJob(200, ItemDocument) },
      config: { asyncJob: true, itemAction: 'delete' },
    },
    async (request, reply) => {
      const entity = await destroyItem(request.scope, request.params.id, gateOf(request));
      return sendResult(deps, request, reply, 200, { data: presentItem(entity) });
    },
  );

  // DatoCMS runs duplication as a job; its result names the model in `included`.
  app.post<Params>(
    '/items/:id/duplicate',
    {
      schema: { response: OrJob(201, DuplicatedItemDocument) },
      config: { asyncJob: true, itemAction: 'duplicate' },
    },
    async (request, reply) => {
      const { record, model } = await duplicateItem(
        request.scope,
        callerTokenOf(request),
        request.params.id,
        gateOf(request),
      );
      const document = { data: presentItem(record), included: [presentItemType(model)] };
      return sendResult(deps, request, reply, 201, document);
    },
  );

  // No body publishes (or withdraws) the whole record; a body names the parts.
  app.put<Params & { Body: Static<typeof PublishItemBody> }>(
    '/items/:id/publish',
    {
      schema: {
        body: PublishItemBody,
        parsedQuerystring: RecursiveQuery,
        response: { 200: ItemDocument },
      },
      config: { itemAction: 'publish', resourceType: 'selective_publish_operation' },
    },
    async (request) => {
      // Parents published along need the same permission as the record.
      const options = treeOptions(request);
      const selection = request.body?.data.attributes;
      return {
        data: presentItem(
          await publishItem(
            request.scope,
            request.params.id,
            selection && contentSelectionOf(selection),
            options,
          ),
        ),
      };
    },
  );

  app.put<Params & { Body: Static<typeof UnpublishItemBody> }>(
    '/items/:id/unpublish',
    {
      schema: {
        body: UnpublishItemBody,
        parsedQuerystring: RecursiveQuery,
        response: { 200: ItemDocument },
      },
      config: { itemAction: 'publish', resourceType: 'selective_unpublish_operation' },
    },
    async (request) => {
      // Children withdrawn along need the same permission as the record.
      const options = treeOptions(request);
      const locales = request.body?.data.attributes.content_in_locales;
      return {
        data: presentItem(await unpublishItem(request.scope, request.params.id, locales, options)),
      };
    },
  );

  for (const action of ['publish', 'unpublish', 'destroy'] as const satisfies BulkAction[]) {
    const itemAction = action === 'destroy' ? 'delete' : 'publish';
    app.post<{ Body: Static<typeof BulkItemsBody> }>(
      `/items/bulk/${action}`,
      {
        schema: { body: BulkItemsBody, response: OrJob(200, BulkItemsDocument) },
        config: {
          resourceType: `item_bulk_${action}_operation`,
          asyncJob: true,
          itemAction,
        },
      },
      async (request, reply) => {
        const ids = request.body.data.relationships.items.data.map((item) => item.id);
        // Every record is checked before any is changed: one refused refuses the operation.
        const actor = actorOf(request);
        await assertMayOnItems(actor, request.scope, { action: itemAction }, ids);
        const gate = recordGate(actor, { action: itemAction });
        const result = await bulkItems(request.scope, action, ids, gate);
        return sendResult(deps, request, reply, 200, presentBulkResult(result));
      },
    );
  }

  // Moving records between workflow stages is its own record action (roles grant it
  // separately from update), run as a job like the other bulk operations.
  app.post<{ Body: Static<typeof BulkMoveToStageBody> }>(
    '/items/bulk/move-to-stage',
    {
      schema: { body: BulkMoveToStageBody, response: OrJob(200, BulkItemsDocument) },
      config: {
        resourceType: 'item_bulk_move_to_stage_operation',
        asyncJob: true,
        itemAction: 'move_to_stage',
      },
    },
    async (request, reply) => {
      const { attributes, relationships } = request.body.data;
      const ids = relationships.items.data.map((item) => item.id);
      const actor = actorOf(request);
      const intent = { action: 'move_to_stage', toStage: attributes.stage } as const;
      await assertMayOnItems(actor, request.scope, intent, ids);
      const gate = recordGate(actor, intent);
      const result = await bulkMoveToStage(request.scope, ids, attributes.stage, gate);
      return sendResult(deps, request, reply, 200, presentBulkResult(result));
    },
  );

  app.get<Params>(
    '/items/:id/versions',
    {
      schema: { parsedQuerystring: ItemVersionsQuery, response: { 200: ItemVersionList } },
      config: read,
    },
    async (request, reply) => {
      await mayOnRecord(request);
      const page = ((request.query as RawQuery).page ?? {}) as RawQuery;
      const { versions, total } = await listVersions(
        request.scope,
        request.params.id,
        {
          offset: integer(page.offset, 'page[offset]') ?? 0,
          limit: Math.min(integer(page.limit, 'page[limit]') ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT),
        },
        readBudget.admitFor(reply),
      );
      return sendListDocument(reply, versions.map(presentItemVersion), {
        meta: { total_count: total },
      });
    },
  );

  app.get<Params>(
    '/versions/:id',
    { schema: { response: { 200: ItemVersionDocument } }, config: read },
    async (request) => {
      await mayOnVersion(request);
      return { data: presentItemVersion(await findVersion(request.scope, request.params.id)) };
    },
  );

  app.post<Params>(
    '/versions/:id/restore',
    {
      schema: { response: OrJob(200, ItemDocument) },
      config: { asyncJob: true, itemAction: 'update' },
    },
    async (request, reply) => {
      const [record, version] = await restoreVersion(
        request.scope,
        editorOf(request),
        request.params.id,
        gateOf(request),
      );
      const data = [presentItem(record), presentItemVersion(version)];
      return sendResult(deps, request, reply, 200, { data });
    },
  );
}
