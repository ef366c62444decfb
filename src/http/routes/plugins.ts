import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as plugins from '../../domain/plugins/service.ts';
import { presentField } from '../../presenters/field.ts';
import { presentPlugin } from '../../presenters/plugin.ts';
import { PluginDocument, PluginList } from '../responses/project.ts';
import { FieldList } from '../responses/schema.ts';
import { CreatePluginBody, UpdatePluginBody } from '../schemas/plugin.ts';

type Params = { Params: { id: string } };

export async function pluginRoutes(app: FastifyInstance): Promise<void> {
  // Installing a plugin changes what the schema's fields may use as editors.
  const write = { permission: 'can_edit_schema', resourceType: 'plugin' } as const;

  app.get('/plugins', { schema: { response: { 200: PluginList } } }, async (request) => ({
    data: (await plugins.listPlugins(request.scope)).map(presentPlugin),
  }));

  app.get<Params>(
    '/plugins/:id',
    { schema: { response: { 200: PluginDocument } } },
    async (request) => ({
      data: presentPlugin(await plugins.findPlugin(request.scope, request.params.id)),
    }),
  );

  app.get<Params>(
    '/plugins/:id/fields',
    { schema: { response: { 200: FieldList } } },
    async (request) => ({
      data: (await plugins.pluginFields(request.scope, request.params.id)).map(presentField),
    }),
  );

  app.post<{ Body: Static<typeof CreatePluginBody> }>(
    '/plugins',
    { schema: { body: CreatePluginBody, response: { 201: PluginDocument } }, config: write },
    async (request, reply) => {
      const data = request.body.data;
      const created = presentPlugin(
        await plugins.createPlugin(request.scope, {
          id: data.id,
          attributes: data.attributes ?? {},
        }),
      );
      return reply.status(201).send({ data: created });
    },
  );

  app.put<Params & { Body: Static<typeof UpdatePluginBody> }>(
    '/plugins/:id',
    { schema: { body: UpdatePluginBody, response: { 200: PluginDocument } }, config: write },
    async (request) => ({
      data: presentPlugin(
        await plugins.updatePlugin(request.scope, request.params.id, {
          attributes: request.body.data.attributes ?? {},
        }),
      ),
    }),
  );

  app.delete<Params>(
    '/plugins/:id',
    { schema: { response: { 200: PluginDocument } }, config: write },
    async (request) => ({
      data: presentPlugin(await plugins.destroyPlugin(request.scope, request.params.id)),
    }),
  );
}
