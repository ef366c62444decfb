import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Client } from '@datocms/cma-client-node';
import { useTestServer } from '../support/server.ts';

const run = promisify(execFile);
const DATOCMS = join(process.cwd(), 'node_modules', '.bin', 'datocms');

const server = useTestServer();
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
  await server.ready();
  workDir = mkdtempSync(join(tmpdir(), 'fieldhouse-datocms-env-'));
  writeFileSync(
    join(workDir, 'datocms.config.json'),
    JSON.stringify({ profiles: { default: { baseUrl: server.baseUrl } } }),
  );
  await server.client().itemTypes.create({ name: 'Blog post', api_key: 'blog_post' });
});

after(async () => {
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

test('migrations:run forks the primary, runs the scripts in order and records each as a schema_migration record; migrations:new --autogenerate writes a script that leaves no difference', async () => {
  const [primary] = (await environments()).filter((env) => env.primary);
  assert.ok(primary);
  const dir = join(workDir, 'migrations');
  mkdirSync(dir);
  writeFileSync(
    join(dir, '1700000000_add_article.js'),
    `module.exports = async function (client) {
  const article = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  await client.fields.create(article.id, { label: 'Title', api_key: 'title', field_type: 'string' });
};
`,
  );
  writeFileSync(
    join(dir, '1700000001_hint_title.js'),
    `module.exports = async function (client) {
  await client.fields.update('article::title', { hint: 'The headline' });
};
`,
  );

  const output = await datocms('migrations:run', `--source=${primary.id}`, '--destination=staging');
  assert.match(output, /Successfully run 2 migration scripts/);

  const staging = server.client({ environment: 'staging' });
  assert.equal((await staging.fields.find('article::title')).hint, 'The headline');
  const log = await staging.items.list({ filter: { type: 'schema_migration' } });
  assert.deepEqual(log.map((record) => record.name).sort(), [
    '1700000000_add_article.js',
    '1700000001_hint_title.js',
  ]);
  // The primary is untouched: the scripts ran on the fork.
  const primaryModels = await server.client().itemTypes.list();
  assert.ok(!primaryModels.some((model) => model.api_key === 'article'));

  // A second run in place finds every script recorded and runs none.
  const again = await datocms('migrations:run', '--source=staging', '--in-place');
  assert.match(again, /No new migration scripts to run/);

  // migrations:new --autogenerate=staging:<primary> writes the script that brings the
  // primary to staging's schema; run on the primary, it leaves no difference to diff.
  const catchup = await generatedScript('catchup', `staging:${primary.id}`);
  assert.match(catchup.source, /client\.itemTypes\.create/);
  assert.match(catchup.source, /api_key: "article"/);
  await catchup.run(server.client());
  assert.equal((await server.client().fields.find('article::title')).hint, 'The headline');
  const verify = await generatedScript('verify', `staging:${primary.id}`);
  assert.doesNotMatch(verify.source, /await client\./, verify.source);
});

/** Runs `migrations:new <name> --autogenerate=<envs>` and loads the script it wrote. */
async function generatedScript(name: string, environments: string) {
  const dir = join(workDir, 'migrations');
  const before = new Set(readdirSync(dir));
  await datocms('migrations:new', name, `--autogenerate=${environments}`, '--js');
  const file = readdirSync(dir).find((entry) => !before.has(entry));
  assert.ok(file, 'migrations:new wrote no file');
  const path = join(dir, file);
  const source = readFileSync(path, 'utf8');
  // A .js file outside any package is CommonJS, as the CLI writes it.
  const run = createRequire(import.meta.url)(path) as (client: Client) => Promise<void>;
  // Moved out of the migrations directory, so a later migrations:run does not pick it up.
  rmSync(path);
  return { source, run };
}
