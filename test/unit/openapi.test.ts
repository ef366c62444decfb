import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument } from '../../src/cli/openapi.ts';
import { loadConfig } from '../../src/config.ts';

type Parameter = { name: string; in: string; style?: string };
type Answer = { content?: Record<string, { schema?: unknown }> };
type Operation = {
  requestBody?: { content: Record<string, { schema?: unknown }> };
  parameters?: Parameter[];
  responses: Record<string, Answer>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    parameters: Record<string, Parameter>;
    responses: Record<string, Answer>;
  };
};

/** The document with every `$ref` replaced by what it names (swagger-parser resolves them). */
async function dereferenced(): Promise<Document> {
  const document = await buildOpenApiDocument(loadConfig({}));
  return (await SwaggerParser.dereference(
    structuredClone(document) as never,
  )) as unknown as Document;
}

function operationsOf(document: Document) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
}

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

test('the document is valid OpenAPI 3.1 and every reference in it resolves', async () => {
  const document = await buildOpenApiDocument(loadConfig({}));
  await SwaggerParser.validate(structuredClone(document) as never);
});

test('every operation documents its answer with a schema, and its refusals', async () => {
  const document = await dereferenced();
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
  const document = await dereferenced();
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

test('resources, their relationships and documents are declared once, as components', async () => {
  const document = (await buildOpenApiDocument(loadConfig({}))) as Document;
  for (const name of ['ItemType', 'Field', 'Item', 'Upload', 'ItemTypeToOne', 'ItemDocument']) {
    assert.ok(document.components.schemas[name], `${name} is a component`);
  }
  // A resource answered in full (`{type: "x", id, attributes…}`) appears only there.
  const inlined = operationsOf(document).filter(({ operation }) => holdsResource(operation));
  assert.deepEqual(
    inlined.map(({ method, path }) => `${method} ${path}`),
    [],
  );
});

/** Whether `value` holds a resource's schema: a constant `type`, and attributes or relationships. */
function holdsResource(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const properties = (value as { properties?: Record<string, { const?: unknown }> }).properties;
  if (
    typeof properties?.type?.const === 'string' &&
    (properties.attributes !== undefined || properties.relationships !== undefined)
  )
    return true;
  return Object.values(value).some(holdsResource);
}

test('every path parameter is declared', async () => {
  const document = await dereferenced();
  const undeclared: string[] = [];
  for (const { path, method, operation } of operationsOf(document)) {
    const declared = new Set(
      (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
    );
    for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
      if (!declared.has(name as string)) undeclared.push(`${method} ${path} ${name}`);
    }
  }
  assert.deepEqual(undeclared, []);
});

test("the headers clients send are documented: the CMA's, and the delivery API's", async () => {
  const document = await dereferenced();
  const headers = (operation: Operation) =>
    (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
  const publicPaths = /^\/(healthz|readyz|metrics|assets\/|graphql)/;
  const withoutCmaHeaders = operationsOf(document)
    .filter(({ path }) => !publicPaths.test(path))
    .filter(({ operation }) => {
      const names = headers(operation);
      return !names.includes('X-Environment') || !names.includes('X-Api-Version');
    });
  assert.deepEqual(
    withoutCmaHeaders.map(({ method, path }) => `${method} ${path}`),
    [],
  );
  for (const method of ['get', 'post'] as const) {
    const graphql = document.paths['/graphql']?.[method];
    assert.ok(graphql, `${method} /graphql`);
    assert.deepEqual(headers(graphql).sort(), [
      'X-Base-Editing-Url',
      'X-Cache-Tags',
      'X-Environment',
      'X-Exclude-Invalid',
      'X-Include-Drafts',
      'X-Visual-Editing',
    ]);
  }
  const body = document.paths['/graphql']?.post?.requestBody?.content['application/json']?.schema;
  assert.match(JSON.stringify(body), /"query"/, 'POST /graphql documents its body');
});
