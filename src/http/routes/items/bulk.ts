import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { assertMayOnItems } from '../../../domain/items/access/access.ts';
import { recordGate } from '../../../domain/items/access/record-gate.ts';
import { type BulkAction, bulkItems, bulkMoveToStage } from '../../../domain/items/writes/bulk.ts';
import { presentBulkResult } from '../../../presenters/item.ts';
import { actorOf } from '../../actor.ts';
import { sendResult } from '../../respond.ts';
import { BulkItemsDocument } from '../../responses/records.ts';
import { OrJob } from '../../schemas/documents.ts';
import { BulkItemsBody, BulkMoveToStageBody } from '../../schemas/item.ts';
import type { AppDeps } from '../../types.ts';

/** Bulk publish, unpublish, destroy and move to a stage, each run as a job. */
export async function recordBulkRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
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
  // separately from update).
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
}
