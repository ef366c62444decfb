import type { FastifyInstance } from 'fastify';
import { readableOnly } from '../../../domain/items/access/access.ts';
import { readableRecords } from '../../../domain/items/access/readable-records.ts';
import { findItem } from '../../../domain/items/find-item.ts';
import { publicationState } from '../../../domain/items/publishing/publication-state.ts';
import { listItems } from '../../../domain/items/query/list.ts';
import { itemReferences } from '../../../domain/items/references.ts';
import { presentItem } from '../../../presenters/item.ts';
import { presentPublicationStateView } from '../../../presenters/item-publication-state.ts';
import { presentKept } from '../../../presenters/kept.ts';
import { actorOf } from '../../actor.ts';
import { sendListDocument } from '../../list-document.ts';
import { readBudget } from '../../read-budget.ts';
import { ItemDocument, ItemList, PublicationStateDocument } from '../../responses/records.ts';
import { ItemQuery, ListItemsQuery } from '../../schemas/item.ts';
import { listQuery, nested, type RawQuery, text } from './params.ts';
import { mayOnRecord, type Params, READ } from './record-access.ts';

/** Record lists, a record, its publication state and the records linking to it. */
export async function recordReadRoutes(app: FastifyInstance): Promise<void> {
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
      // A kept page's records are presented, and their JSON made, once.
      const data = records.map((record) => presentKept(record, presentItem));
      return sendListDocument(reply, data, { meta: { total_count: total } });
    },
  );

  app.get<Params>(
    '/items/:id',
    { schema: { parsedQuerystring: ItemQuery, response: { 200: ItemDocument } }, config: READ },
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
    { schema: { response: { 200: PublicationStateDocument } }, config: READ },
    async (request) => {
      await mayOnRecord(request);
      return presentPublicationStateView(await publicationState(request.scope, request.params.id));
    },
  );

  app.get<Params>(
    '/items/:id/references',
    { schema: { response: { 200: ItemList } }, config: READ },
    async (request) => {
      await mayOnRecord(request);
      const references = await itemReferences(request.scope, request.params.id);
      // Only the referencing records the role may read are shown.
      const readable = await readableOnly(actorOf(request), request.scope, references);
      return { data: readable.map(presentItem) };
    },
  );
}
