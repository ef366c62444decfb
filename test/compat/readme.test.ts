import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

test('the README client example runs against Fieldhouse', async () => {
  const readme = readFileSync('README.md', 'utf8');
  const example = /```js\n(\/\/ readme-example[^\n]*\n[\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(example, 'README has the marked example');
  // Inside the project so that the example's import resolves from node_modules.
  const file = `readme-example-${process.pid}.mjs`;
  writeFileSync(file, example);
  try {
    const child = spawn(process.execPath, [file], {
      env: { ...process.env, FIELDHOUSE_URL: server.baseUrl, FIELDHOUSE_TOKEN: server.adminToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, output);
    assert.match(output, /blog_post: Articles for the blog/);
  } finally {
    rmSync(file, { force: true });
  }
  assert.deepEqual(await server.client().itemTypes.list(), [], 'the example cleaned up');
});
