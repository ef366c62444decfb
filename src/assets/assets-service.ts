import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Db } from '../db/client.ts';
import { DomainError } from '../domain/errors.ts';
import { filenameOf } from '../domain/upload-file-names.ts';
import { storageKey } from '../domain/uploads/paths.ts';
import type { Storage } from '../storage/storage.ts';
import { assertSafeKey } from '../storage/storage.ts';
import { downloadHeader, safetyHeaders } from './asset-headers.ts';
import {
  type AssetRequest,
  type AssetResponse,
  fileResponse,
  type Servable,
} from './file-response.ts';
import { type Asset, findAsset } from './find-asset.ts';
import type { ImageConfig } from './image-config.ts';
import { CONTENT_TYPES, negotiateFormat } from './output-format.ts';
import { RecentAssets } from './recent-assets.ts';
import { RenderQueue } from './render-queue.ts';
import { RenditionCache } from './rendition-cache.ts';
import {
  mayRender,
  type RenditionOutcome,
  type Renditions,
  rendition,
  transformable,
} from './renditions.ts';
import { SingleFlight } from './single-flight.ts';
import { parseTransform } from './transform.ts';

/** What `GET|HEAD /assets/<path>` answers, made once per process. */
export type AssetService = Readonly<{
  serve(path: string, query: URLSearchParams, request: AssetRequest): Promise<AssetResponse>;
  renditions: Renditions;
}>;

export function assetService(
  db: Db,
  storage: Storage,
  config: ImageConfig,
  counted: (outcome: RenditionOutcome) => void,
): AssetService {
  const renditions: Renditions = {
    storage,
    cache: new RenditionCache(config.renditionsDir, config.renditionsMaxBytes),
    queue: new RenderQueue(config.concurrency, config.maxWaiting),
    flights: new SingleFlight(),
    config,
    counted,
  };
  const recent = new RecentAssets();
  return {
    renditions,
    async serve(path, query, request) {
      const asset = isStoredPath(path) ? await recent.get(path, () => findAsset(db, path)) : null;
      if (!asset) throw new DomainError('NOT_FOUND', `No asset at ${path}`);
      const download = downloadHeader(query.get('dl'), filenameOf(path));
      // Files no parameter applies to ignore them all, malformed ones included.
      const transform = mayRender(asset) ? parseTransform(query) : null;
      if (!transform || !transformable(asset, transform)) {
        return fileResponse(original(storage, asset, download), request);
      }
      const accept = request.headers.accept;
      const negotiated = negotiateFormat(
        transform,
        asset.format,
        Array.isArray(accept) ? accept.join(',') : accept,
      );
      const vary: Record<string, string> = negotiated.variesByAccept ? { vary: 'Accept' } : {};
      // A rendition evicted between its lookup and its opening is made again, once.
      for (let attempt = 0; ; attempt++) {
        const made = await rendition(renditions, asset, transform, negotiated.format);
        const contentType = CONTENT_TYPES[negotiated.format];
        const servable: Servable = {
          etag: `"${made.key}"`,
          lastModified: made.modifiedAt,
          size: made.size,
          contentType,
          headers: { ...safetyHeaders(contentType), ...vary, ...download },
          open: (range) => openFile(made.file, range),
        };
        try {
          return await fileResponse(servable, request);
        } catch (error) {
          if (attempt > 0 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    },
  };
}

/** Paths Fieldhouse makes (`/<site>/<ms>-<name>`); anything else is not looked up. */
function isStoredPath(path: string): boolean {
  try {
    assertSafeKey(storageKey(path));
    return path.startsWith('/');
  } catch {
    return false;
  }
}

function original(storage: Storage, asset: Asset, download: Record<string, string>): Servable {
  return {
    etag: `"${asset.md5}"`,
    lastModified: asset.createdAt,
    size: asset.size,
    contentType: asset.mimeType,
    headers: { ...safetyHeaders(asset.mimeType), ...download },
    open: (range) => storage.read(storageKey(asset.path), range),
  };
}

/** The file's bytes (or a range), its absence surfacing here rather than mid-response. */
async function openFile(file: string, range?: { start: number; end: number }): Promise<Readable> {
  const stream = createReadStream(file, range);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return stream;
}
