import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { INSTALL_ROOT } from '../../paths.ts';

/**
 * The web console (console/): static files built by console/build.mjs on the first start
 * after a change, held in memory (a few hundred KB) with their gzip form. It is served
 * outside the CMA's protocol (no token: the page signs in in the browser and calls the
 * public API like any client). Its own URLs are `<path>`, `<path>editor/*` (the page's
 * routes, among them the delivery API's editing links) and `<path>_console/*` (files):
 * none of them is an API route.
 */

type StaticFile = { body: Buffer; gzip: Buffer; type: string };
type ConsoleFiles = { index: StaticFile; assets: Map<string, StaticFile> };
type ConsoleBuilder = { buildConsole(cacheDir: string): Promise<string> };

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

/** Images and files may live on another origin (S3, FIELDHOUSE_ASSETS_URL); scripts may not. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  'media-src * blob:',
  'connect-src *',
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function staticFile(body: Buffer, name: string): StaticFile {
  const extension = name.slice(name.lastIndexOf('.') + 1);
  return {
    body,
    gzip: gzipSync(body),
    type: TYPES[extension] ?? 'application/octet-stream',
  };
}

async function loadConsole(cacheDir: string, base: string): Promise<ConsoleFiles> {
  const builder = (await import(
    pathToFileURL(join(INSTALL_ROOT, 'console', 'build.mjs')).href
  )) as ConsoleBuilder;
  const dir = await builder.buildConsole(cacheDir);
  const html = readFileSync(join(dir, 'index.html'), 'utf8').replaceAll('__BASE__', base);
  const assets = new Map<string, StaticFile>();
  for (const name of readdirSync(join(dir, 'assets'))) {
    assets.set(name, staticFile(readFileSync(join(dir, 'assets', name)), name));
  }
  return { index: staticFile(Buffer.from(html), 'index.html'), assets };
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', file.type).header('vary', 'accept-encoding');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? file.gzip : file.body);
}

export async function consoleRoutes(
  app: FastifyInstance,
  options: { path: string; cacheDir: string },
): Promise<void> {
  let files: Promise<ConsoleFiles> | null = null;
  // Built on first use, once: API-only use of the server never pays for it.
  const consoleFiles = () => {
    files ??= loadConsole(options.cacheDir, options.path).catch((error) => {
      files = null;
      throw error;
    });
    return files;
  };
  const route = { config: { public: true }, schema: { hide: true } } as const;
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const { index } = await consoleFiles();
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    return send(request, reply, index);
  };

  app.get(options.path, route, page);
  app.get(`${options.path}editor/*`, route, page);
  // A sandbox's editing links, as the delivery API's `_editingUrl` writes them (DatoCMS's form).
  app.get(`${options.path}environments/:environment/editor/*`, route, page);
  app.get<{ Params: { '*': string } }>(
    `${options.path}_console/*`,
    route,
    async (request, reply) => {
      const file = (await consoleFiles()).assets.get(request.params['*']);
      if (!file) return reply.status(404).type('text/plain').send('Not found');
      // Every file name carries its content's hash.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      return send(request, reply, file);
    },
  );
}
