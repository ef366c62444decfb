import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildOpenApiDocument } from '../../src/cli/openapi.ts';
import { loadConfig } from '../../src/config.ts';

type Parameter = { name: string; in: string; style?: string };
type Operation = {
  requestBody?: unknown;
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

test('the committed openapi.json matches the routes (refresh it with `npm run openapi`)', async () => {
  const generated = (await buildOpenApiDocument(loadConfig({}))) as Document;
  const committed = JSON.parse(readFileSync('openapi.json', 'utf8')) as Document;
  assert.equal(generated.openapi, '3.1.0');
  assert.deepEqual(committed, generated);
});

test('the document carries the schemas requests are validated with', async () => {
  const document = (await buildOpenApiDocument(loadConfig({}))) as Document;
  const createModel = document.paths['/item-types']?.post;
  assert.ok(createModel?.requestBody, 'POST /item-types documents its request body');
  assert.match(JSON.stringify(createModel.requestBody), /"api_key"/);
  assert.equal(document.paths['/openapi.json'], undefined, 'the document itself is hidden');
});

test('every operation documents its answer with a schema, and its refusals', async () => {
  const document = (await buildOpenApiDocument(loadConfig({}))) as Document;
  const undocumented: string[] = [];
  let operations = 0;
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      operations++;
      const answers = Object.entries(operation.responses).filter(([code]) => code !== 'default');
      const described = answers.some(
        ([code, answer]) =>
          code === '204' || Object.values(answer.content ?? {}).some((media) => media.schema),
      );
      if (!described || !operation.responses.default?.content)
        undocumented.push(`${method.toUpperCase()} ${path}`);
    }
  }
  assert.ok(operations >= 114, `only ${operations} operations`);
  assert.deepEqual(undocumented, []);
});

test('the query strings routes parse themselves are documented, objects as deepObject', async () => {
  const document = (await buildOpenApiDocument(loadConfig({}))) as Document;
  const query = (path: string, method: string) =>
    (document.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === 'query');
  const names = (path: string, method: string) =>
    query(path, method)
      .map((p) => p.name)
      .sort();
  assert.deepEqual(names('/items', 'get'), [
    'filter',
    'locale',
    'nested',
    'order_by',
    'page',
    'version',
  ]);
  assert.deepEqual(
    query('/items', 'get')
      .filter((p) => p.name === 'filter' || p.name === 'page')
      .map((p) => p.style),
    ['deepObject', 'deepObject'],
  );
  assert.deepEqual(names('/items/{id}', 'get'), ['nested', 'version']);
  assert.deepEqual(names('/items/{id}/versions', 'get'), ['page']);
  assert.deepEqual(names('/items/{id}/publish', 'put'), ['recursive']);
  assert.deepEqual(names('/graphql', 'get'), ['operationName', 'query', 'variables']);
});
