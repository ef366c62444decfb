#!/usr/bin/env -S node --max-semi-space-size=4
// V8's young generation otherwise grows to 2 x 16 MB semi-spaces under load and stays
// resident: 4 MB ones keep ~24 MB less RSS for no measurable CPU per request (see
// docs/footprint.md). npm start passes the same flag: it must be on node's command line.
//
// Runs the TypeScript sources as JavaScript bundled by esbuild on the first run after any
// source change, kept in .cache/ in a folder named by the sources' hash: the entry and the
// chunks loaded on first use (the delivery API's GraphQL, the S3 SDK). A TypeScript
// loader in the process (tsx) would keep a loader thread and a transform cache resident,
// ~60MB, and resolve every import through it at each start.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = join(root, 'src');

/** The sources, and this file (it holds the build options): a change to either rebuilds. */
function sourcesHash() {
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  const files = readdirSync(sources, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    if (file.endsWith('.ts')) hash.update(file).update(readFileSync(join(sources, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

// One level below the root, as src/ is: src/paths.ts finds the root from either place.
const cache = join(root, '.cache');
const name = `fieldhouse-${sourcesHash()}`;
const folder = join(cache, name);

if (!existsSync(folder)) {
  const { build } = await import('esbuild');
  // Built into a folder of this process's own, then renamed whole: processes starting
  // together never run a half-written build, and the first rename wins.
  const partial = join(cache, `${name}.${process.pid}.tmp`);
  await build({
    entryPoints: { main: join(sources, 'main.ts') },
    outdir: partial,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    target: 'node20',
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  try {
    renameSync(partial, folder);
  } catch (error) {
    if (!existsSync(folder)) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
  // Builds of earlier sources: a process still running one has loaded its entry but loads
  // its chunks on first use, so a build goes only once it is neither among the last three
  // nor a day old.
  const dayAgo = Date.now() - 86_400_000;
  const earlier = readdirSync(cache)
    .filter((entry) => /^fieldhouse-[0-9a-f]{16}(\.\d+\.tmp)?$/.test(entry) && entry !== name)
    .map((entry) => ({ path: join(cache, entry), mtime: statSync(join(cache, entry)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { path, mtime } of earlier.slice(2)) {
    if (mtime < dayAgo) rmSync(path, { recursive: true, force: true });
  }
  // Single-file bundles of the versions before chunks.
  for (const entry of readdirSync(cache)) {
    if (/^fieldhouse-[0-9a-f]{16}\.mjs/.test(entry)) rmSync(join(cache, entry), { force: true });
  }
}

await import(pathToFileURL(join(folder, 'main.mjs')).href);
