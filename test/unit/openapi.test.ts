import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildOpenApiDocument } from '../../src/cli/openapi.ts';
import { loadConfig } from '../../src/config.ts';

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown }>>;
};

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
