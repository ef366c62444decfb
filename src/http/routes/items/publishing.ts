import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { contentSelectionOf, publishItem } from '../../../domain/items/publishing/publish-item.ts';
import { unpublishItem } from '../../../domain/items/publishing/unpublish-item.ts';
import { presentItem } from '../../../presenters/item.ts';
import { ItemDocument } from '../../responses/records.ts';
import { PublishItemBody, RecursiveQuery, UnpublishItemBody } from '../../schemas/item.ts';
import { type Params, treeOptions } from './record-access.ts';

/** Publish and unpublish a record: no body acts on the whole record, a body names the parts. */
export async function recordPublishingRoutes(app: FastifyInstance): Promise<void> {
  app.put<Params & { Body: Static<typeof PublishItemBody> }>(
    '/items/:id/publish',
    {
      schema: {
        body: PublishItemBody,
        parsedQuerystring: RecursiveQuery,
        response: { 200: ItemDocument },
      },
      config: {
        itemAction: 'publish',
        resourceType: 'selective_publish_operation',
        checksTokenInChange: true,
      },
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
      config: {
        itemAction: 'publish',
        resourceType: 'selective_unpublish_operation',
        checksTokenInChange: true,
      },
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
}
