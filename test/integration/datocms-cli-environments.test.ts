import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const DATOCMS = join(process.cwd(), 'node_modules', '.bin', 'datocms');

let server: TestServer;
let workDir: string;

/**
 * Runs `datocms` as CI would: the server comes from the default profile's `baseUrl` in
 * datocms.config.json, the token from DATOCMS_API_TOKEN.
 */
async function datocms(...args: string[]): Promise<string> {
  const { stdout } = await run(DATOCMS, args, {
    cwd: workDir,
    env: { ...process.env, NO_COLOR: '1', DATOCMS_API_TOKEN: server.adminToken },
    timeout: 120_000,
  });
  return stdout;
}

async function environments(): Promise<{ id: string; primary: boolean }[]> {
  const listed = JSON.parse(await datocms('environments:list', '--json')) as {
    id: string;
    meta: { primary: boolean };
  }[];
  return listed.map((env) => ({ id: env.id, primary: env.meta.primary }));
}

before(async () => {
  server = await startTestServer();
  workDir = mkdtempSync(join(tmpdir(), 'fieldhouse-datocms-env-'));
  writeFileSync(
    join(workDir, 'datocms.config.json'),
    JSON.stringify({ profiles: { default: { baseUrl: server.baseUrl } } }),
  );
  await server.client().itemTypes.create({ name: 'Blog post', api_key: 'blog_post' });
});

after(async () => {
  await server.close();
  rmSync(workDir, { recursive: true, force: true });
});

test('the deploy workflow: fork, maintenance on, promote, maintenance off, rename, destroy', async () => {
  await datocms('environments:fork', 'main', 'release');
  assert.deepEqual(await environments(), [
    { id: 'main', primary: true },
    { id: 'release', primary: false },
  ]);
  await assert.rejects(datocms('environments:fork', 'main', 'release'), /already exists/);

  await datocms('maintenance:on');
  assert.equal((await server.client().maintenanceMode.find()).active, true);
  await datocms('environments:promote', 'release');
  await datocms('maintenance:off');
  assert.equal((await server.client().maintenanceMode.find()).active, false);
  assert.deepEqual(await environments(), [
    { id: 'release', primary: true },
    { id: 'main', primary: false },
  ]);

  await datocms('environments:rename', 'main', 'previous');
  assert.deepEqual(
    (await environments()).map((env) => env.id),
    ['release', 'previous'],
  );
  await datocms('environments:destroy', 'previous');
  assert.deepEqual(await environments(), [{ id: 'release', primary: true }]);
  const models = await server.client().itemTypes.list();
  assert.deepEqual(
    models.map((model) => model.api_key),
    ['blog_post'],
  );
});
