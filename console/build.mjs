// Builds the console into static files under <cache>/console-<hash>/, once per change of
// its sources (or of this file, which holds the build options), as bin/fieldhouse.js
// builds the server bundle: no build command, the first start after a change builds.
// Plain JavaScript so that the server bundle and the TypeScript sources load it alike.
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
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const sources = join(here, 'src');

function sourcesHash() {
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of readdirSync(sources, { recursive: true, encoding: 'utf8' }).sort()) {
    if (/\.(tsx?|css)$/.test(file)) hash.update(file).update(readFileSync(join(sources, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The page's shell. `base` is where the console is mounted; the script reads it from the
 * meta tag (no inline script, so the Content-Security-Policy can forbid them).
 */
function indexHtml(entry, styles, chunks) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="fieldhouse-console-base" content="__BASE__">
<title>Fieldhouse</title>
${styles.map((file) => `<link rel="stylesheet" href="__BASE___console/${file}">`).join('\n')}
<script type="module" src="__BASE___console/${entry}"></script>
${chunks.map((file) => `<link rel="modulepreload" href="__BASE___console/${file}">`).join('\n')}
</head>
<body><div id="app"></div></body>
</html>
`;
}

/**
 * The pages people open by their URL (a model's records, an editing link); the others are
 * reached from inside the console, their code fetched on the way.
 */
const PRELOADED_PAGES = ['pages/record-list.tsx', 'pages/record-editor.tsx'];

/**
 * The chunks fetched at once, beside the entry: what the entry and the preloaded pages
 * import statically, and those pages' own chunks. A list or an editing link opened by
 * its URL then does not wait for the shell to ask for its code; the other pages' code
 * does not compete with it for the first paint.
 */
function preloadedChunks(metafile, entry) {
  const roots = Object.entries(metafile.outputs)
    .filter(([, output]) => PRELOADED_PAGES.some((page) => output.entryPoint?.endsWith(page)))
    .map(([file]) => file);
  const found = new Set();
  const visit = (file) => {
    if (found.has(file)) return;
    found.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement') visit(imported.path);
    }
  };
  for (const root of [entry, ...roots]) visit(root);
  found.delete(entry);
  return [...found].filter((file) => file.endsWith('.js'));
}

/**
 * Returns the folder holding index.html and `assets/`. Concurrent starts may build the
 * same hash together: each builds in a folder of its own and renames it into place; a
 * loser of the rename finds the winner's identical output there.
 */
export async function buildConsole(cacheDir) {
  const target = join(cacheDir, `console-${sourcesHash()}`);
  if (existsSync(join(target, 'index.html'))) return target;
  const scratch = `${target}.${process.pid}.${Date.now()}.tmp`;
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(sources, 'main.tsx')],
    outdir: join(scratch, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: 'linked',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = Object.entries(result.metafile.outputs);
  // esbuild marks each page's chunk (a dynamic import) as an entry point too: the page's
  // own entry is the one built from main.tsx.
  const entry = outputs.find(([, output]) => output.entryPoint?.endsWith('main.tsx'))?.[0];
  const styles = outputs.filter(([file]) => file.endsWith('.css')).map(([file]) => basename(file));
  const chunks = preloadedChunks(result.metafile, entry).map((file) => basename(file));
  if (!entry) throw new Error('the console build produced no entry script');
  writeFileSync(join(scratch, 'index.html'), indexHtml(basename(entry), styles, chunks));
  mkdirSync(cacheDir, { recursive: true });
  try {
    renameSync(scratch, target);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(join(target, 'index.html'))) throw error;
  }
  for (const entryName of readdirSync(cacheDir)) {
    if (/^console-[0-9a-f]{16}$/.test(entryName) && join(cacheDir, entryName) !== target) {
      rmSync(join(cacheDir, entryName), { recursive: true, force: true });
    }
  }
  return target;
}
