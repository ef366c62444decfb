#!/usr/bin/env -S node --max-semi-space-size=4
// V8's young generation otherwise grows to 2 x 16 MB semi-spaces under load and stays
// resident: 4 MB ones keep ~24 MB less RSS for no measurable CPU per request (see
// docs/footprint.md). npm start passes the same flag: it must be on node's command line.
//
// Runs the TypeScript sources as one JavaScript bundle, built by esbuild on the first run
// after any source change and kept in .cache/ under the sources' hash. A TypeScript loader
// in the process (tsx) would keep a loader thread and a transform cache resident, ~60MB,
// and resolve every import through it at each start.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
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
const bundle = join(cache, `fieldhouse-${sourcesHash()}.mjs`);

if (!existsSync(bundle)) {
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    entryPoints: [join(sources, 'main.ts')],
    outfile: bundle,
    write: false,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  mkdirSync(cache, { recursive: true });
  // Each file is written under a name of this process's own and renamed, the bundle
  // last: processes starting together never run a half-written bundle.
  const files = outputFiles.sort((a, b) => (a.path === bundle) - (b.path === bundle));
  for (const file of files) {
    const partial = `${file.path}.${process.pid}.tmp`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  // Bundles of earlier sources: a process still running one has it loaded already.
  const current = [basename(bundle), `${basename(bundle)}.map`];
  for (const entry of readdirSync(cache)) {
    if (/^fieldhouse-[0-9a-f]{16}\.mjs/.test(entry) && !current.includes(entry)) {
      rmSync(join(cache, entry), { force: true });
    }
  }
}

await import(pathToFileURL(bundle).href);
