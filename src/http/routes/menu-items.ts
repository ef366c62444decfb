import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { MenuItemInput } from '../../domain/menu/menu-item-rules.ts';
import * as menuItems from '../../domain/menu/menu-items.ts';
import { presentMenuItem } from '../../presenters/menu-item.ts';
import { relationshipIds } from '../jsonapi.ts';
import { sendResult } from '../respond.ts';
import { MenuItemDocument, MenuItemList } from '../responses/project.ts';
import { OrJob } from '../schemas/documents.ts';
import {
  CreateMenuItemBody,
  ReorderMenuItemsBody,
  UpdateMenuItemBody,
} from '../schemas/menu-item.ts';
import { filterIds, IdsFilterQuery, reorderEntries } from '../schemas/menu-tree.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type CreateBody = Static<typeof CreateMenuItemBody>;
type UpdateBody = Static<typeof UpdateMenuItemBody>;

function toInput(body: CreateBody | UpdateBody, includeId: boolean): MenuItemInput {
  return {
    id: includeId ? body.data.id : undefined,
    attributes: body.data.attributes ?? {},
    relationships: relationshipIds(body.data.relationships),
  };
}

export async function menuItemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // Each menu write is one change, which checks the token's access version itself: the
  // request need not read its token first (plugins/assumed-token.ts).
  const menuWrite = {
    permission: 'can_manage_menu',
    resourceType: 'menu_item',
    checksTokenInChange: true,
  } as const;

  app.get<{ Querystring: Static<typeof IdsFilterQuery> }>(
    '/menu-items',
    { schema: { querystring: IdsFilterQuery, response: { 200: MenuItemList } } },
    async (request) => ({
      data: (await menuItems.listMenuItems(request.scope, filterIds(request.query))).map(
        presentMenuItem,
      ),
    }),
  );

  app.get<Params>(
    '/menu-items/:id',
    { schema: { response: { 200: MenuItemDocument } } },
    async (request) => ({
      data: presentMenuItem(await menuItems.findMenuItem(request.scope, request.params.id)),
    }),
  );

  app.post<{ Body: CreateBody }>(
    '/menu-items',
    {
      schema: { body: CreateMenuItemBody, response: { 201: MenuItemDocument } },
      config: menuWrite,
    },
    async (request, reply) => {
      const data = presentMenuItem(
        await menuItems.createMenuItem(request.scope, toInput(request.body, true)),
      );
      return reply.status(201).send({ data });
    },
  );

  app.post<{ Body: Static<typeof ReorderMenuItemsBody> }>(
    '/menu-items/reorder',
    {
      schema: { body: ReorderMenuItemsBody, response: OrJob(200, MenuItemList) },
      config: { ...menuWrite, asyncJob: true },
    },
    async (request, reply) => {
      const data = (
        await menuItems.reorderMenuItems(request.scope, reorderEntries(request.body))
      ).map(presentMenuItem);
      return sendResult(deps, request, reply, 200, { data });
    },
  );

  app.put<Params & { Body: UpdateBody }>(
    '/menu-items/:id',
    {
      schema: { body: UpdateMenuItemBody, response: { 200: MenuItemDocument } },
      config: menuWrite,
    },
    async (request) => ({
      data: presentMenuItem(
        await menuItems.updateMenuItem(
          request.scope,
          request.params.id,
          toInput(request.body, false),
        ),
      ),
    }),
  );

  app.delete<Params>(
    '/menu-items/:id',
    { schema: { response: { 200: MenuItemDocument } }, config: menuWrite },
    async (request) => ({
      data: presentMenuItem(await menuItems.destroyMenuItem(request.scope, request.params.id)),
    }),
  );
}
