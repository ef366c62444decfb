import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { useTestServer } from '../support/server.ts';

const run = promisify(execFile);
const DATOCMS = join(process.cwd(), 'node_modules', '.bin', 'datocms');

const server = useTestServer();
let workDir: string;

/** Runs the official `datocms` command line against the test server, as a CI pipeline would. */
async function datocms(...args: string[]): Promise<string> {
  const { stdout } = await run(
    DATOCMS,
    [...args, '--base-url', server.baseUrl, '--api-token', server.adminToken],
    // Its own cwd, so no datocms.config.json or update check from the repo leaks in.
    { cwd: workDir, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 },
  );
  return stdout;
}

before(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'fieldhouse-datocms-cli-'));
  const client = server.client();
  const post = await client.itemTypes.create({ name: 'Blog post', api_key: 'blog_post' });
  await client.fields.create(post.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await client.fields.create(post.id, { label: 'Views', api_key: 'views', field_type: 'integer' });
});

after(async () => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('the datocms command line with --base-url', () => {
  test('cma:call creates and lists models', async () => {
    await datocms('cma:call', 'itemTypes', 'create', '--data', '{"name":"Tag","api_key":"tag"}');
    const listed = JSON.parse(await datocms('cma:call', 'itemTypes', 'list')) as {
      api_key: string;
    }[];
    assert.deepEqual(listed.map((model) => model.api_key).sort(), ['blog_post', 'tag']);
  });

  test('schema:inspect reports models with their fields', async () => {
    const inspected = await datocms('schema:inspect', 'blog_post', '--json');
    assert.match(inspected, /"blog_post"/);
    assert.match(inspected, /"title"/);
    assert.match(inspected, /"views"/);
  });

  test('schema:generate writes TypeScript types for the schema', async () => {
    const output = join(workDir, 'schema.ts');
    await datocms('schema:generate', output);
    const generated = readFileSync(output, 'utf8');
    assert.match(generated, /export type BlogPost = ItemTypeDefinition</);
    assert.match(generated, /title: \{\s*type: 'string'/);
    assert.match(generated, /views: \{\s*type: 'integer'/);
  });

  test('cma:script runs a script file with the client pointed at the server', async () => {
    const script = join(workDir, 'list-models.ts');
    writeFileSync(
      script,
      [
        "import type { Client } from 'datocms/lib/cma-client-node';",
        'export default async function (client: Client) {',
        '  const models = await client.itemTypes.list();',
        "  console.log('models: ' + models.map((model) => model.api_key).sort().join(','));",
        '}',
        '',
      ].join('\n'),
    );
    const output = await datocms('cma:script', script);
    assert.match(output, /models: blog_post,tag/);
  });
});
