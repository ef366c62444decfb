import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SchemaMenuItemInput } from '../../domain/menu/schema-menu-item-rules.ts';
import * as schemaMenuItems from '../../domain/menu/schema-menu-items.ts';
import { presentSchemaMenuItem } from '../../presenters/menu-item.ts';
import { relationshipIds } from '../jsonapi.ts';
import { sendResult } from '../respond.ts';
import { SchemaMenuItemDocument, SchemaMenuItemList } from '../responses/project.ts';
import { OrJob } from '../schemas/documents.ts';
import { filterIds, IdsFilterQuery, reorderEntries } from '../schemas/menu-tree.ts';
import {
  CreateSchemaMenuItemBody,
  ReorderSchemaMenuItemsBody,
  UpdateSchemaMenuItemBody,
} from '../schemas/schema-menu-item.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type CreateBody = Static<typeof CreateSchemaMenuItemBody>;
type UpdateBody = Static<typeof UpdateSchemaMenuItemBody>;

export async function schemaMenuItemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // Each schema menu write is one change, which checks the token's access version itself:
  // the request need not read its token first (plugins/assumed-token.ts).
  const schemaWrite = {
    permission: 'can_edit_schema',
    resourceType: 'schema_menu_item',
    checksTokenInChange: true,
  } as const;

  app.get<{ Querystring: Static<typeof IdsFilterQuery> }>(
    '/schema-menu-items',
    { schema: { querystring: IdsFilterQuery, response: { 200: SchemaMenuItemList } } },
    async (request) => ({
      data: (
        await schemaMenuItems.listSchemaMenuItems(request.scope, filterIds(request.query))
      ).map(presentSchemaMenuItem),
    }),
  );

  app.get<Params>(
    '/schema-menu-items/:id',
    { schema: { response: { 200: SchemaMenuItemDocument } } },
    async (request) => ({
      data: presentSchemaMenuItem(
        await schemaMenuItems.findSchemaMenuItem(request.scope, request.params.id),
      ),
    }),
  );

  app.post<{ Body: CreateBody }>(
    '/schema-menu-items',
    {
      schema: { body: CreateSchemaMenuItemBody, response: { 201: SchemaMenuItemDocument } },
      config: schemaWrite,
    },
    async (request, reply) => {
      const { data: document } = request.body;
      const input: SchemaMenuItemInput = {
        id: document.id,
        attributes: document.attributes ?? {},
        relationships: relationshipIds(document.relationships),
      };
      const data = presentSchemaMenuItem(
        await schemaMenuItems.createSchemaMenuItem(request.scope, input),
      );
      return reply.status(201).send({ data });
    },
  );

  app.post<{ Body: Static<typeof ReorderSchemaMenuItemsBody> }>(
    '/schema-menu-items/reorder',
    {
      schema: { body: ReorderSchemaMenuItemsBody, response: OrJob(200, SchemaMenuItemList) },
      config: { ...schemaWrite, asyncJob: true },
    },
    async (request, reply) => {
      const data = (
        await schemaMenuItems.reorderSchemaMenuItems(request.scope, reorderEntries(request.body))
      ).map(presentSchemaMenuItem);
      return sendResult(deps, request, reply, 200, { data });
    },
  );

  app.put<Params & { Body: UpdateBody }>(
    '/schema-menu-items/:id',
    {
      schema: { body: UpdateSchemaMenuItemBody, response: { 200: SchemaMenuItemDocument } },
      config: schemaWrite,
    },
    async (request) => {
      const { attributes, relationships } = request.body.data;
      const { children, ...toOne } = relationships ?? {};
      const input: SchemaMenuItemInput = {
        attributes: attributes ?? {},
        relationships: relationshipIds(toOne),
        children: children?.data.map((child) => child.id),
      };
      return {
        data: presentSchemaMenuItem(
          await schemaMenuItems.updateSchemaMenuItem(request.scope, request.params.id, input),
        ),
      };
    },
  );

  app.delete<Params>(
    '/schema-menu-items/:id',
    { schema: { response: { 200: SchemaMenuItemDocument } }, config: schemaWrite },
    async (request) => ({
      data: presentSchemaMenuItem(
        await schemaMenuItems.destroySchemaMenuItem(request.scope, request.params.id),
      ),
    }),
  );
}
