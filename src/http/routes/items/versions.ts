import type { FastifyInstance } from 'fastify';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../../domain/items/query/list.ts';
import {
  findVersion,
  listVersions,
  restoreVersion,
} from '../../../domain/items/versions/versions.ts';
import { presentItem } from '../../../presenters/item.ts';
import { presentItemVersion } from '../../../presenters/item-version.ts';
import { sendListDocument } from '../../list-document.ts';
import { readBudget } from '../../read-budget.ts';
import { sendResult } from '../../respond.ts';
import { ItemDocument, ItemVersionDocument, ItemVersionList } from '../../responses/records.ts';
import { OrJob } from '../../schemas/documents.ts';
import { ItemVersionsQuery } from '../../schemas/item.ts';
import type { AppDeps } from '../../types.ts';
import { integer, type RawQuery } from './params.ts';
import { editorOf, gateOf, mayOnRecord, mayOnVersion, type Params, READ } from './record-access.ts';

/** A record's versions, one version, and a restore of one. */
export async function recordVersionRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get<Params>(
    '/items/:id/versions',
    {
      schema: { parsedQuerystring: ItemVersionsQuery, response: { 200: ItemVersionList } },
      config: READ,
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
    { schema: { response: { 200: ItemVersionDocument } }, config: READ },
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
