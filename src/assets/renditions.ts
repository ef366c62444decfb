import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DomainError } from '../domain/errors.ts';
import { storageKey } from '../domain/uploads/paths.ts';
import type { Storage } from '../storage/storage.ts';
import type { Asset } from './find-asset.ts';
import type { ImageConfig } from './image-config.ts';
import { EXTENSIONS } from './output-format.ts';
import { type Plan, planRendition } from './plan.ts';
import { renderImage } from './render.ts';
import type { RenderQueue } from './render-queue.ts';
import type { CachedRendition, RenditionCache } from './rendition-cache.ts';
import type { SingleFlight } from './single-flight.ts';
import type { OutputFormat, Transform } from './transform.ts';

/** Formats sharp decodes and renders; any other file is served as it is. */
const RASTER_SOURCES = new Set(['jpg', 'png', 'gif', 'webp', 'avif', 'tiff']);
/** SVG is rasterized from bytes held in memory: no larger than this. */
const MAX_SVG_BYTES = 10 * 1024 * 1024;

export type RenditionOutcome = 'cached' | 'rendered' | 'joined';

export type Renditions = Readonly<{
  storage: Storage;
  cache: RenditionCache;
  queue: RenderQueue;
  flights: SingleFlight<CachedRendition>;
  config: ImageConfig;
  counted(outcome: RenditionOutcome): void;
}>;

/** Whether any transform may apply to the file: an image sharp renders, or an SVG. */
export function mayRender(asset: Asset): boolean {
  if (!asset.isImage || asset.width === null || asset.height === null) return false;
  return asset.format === 'svg' || RASTER_SOURCES.has(asset.format ?? '');
}

/**
 * Whether a transform applies to the file: raster images always; SVG only when `fm`
 * asks for a raster format (then sharp rasterizes it, see the README); other files never.
 */
export function transformable(asset: Asset, transform: Transform): boolean {
  if (!mayRender(asset)) return false;
  return asset.format !== 'svg' || transform.fm !== null;
}

/** The rendition's cache key: the source bytes, the canonical parameters, the format. */
export function renditionKey(asset: Asset, transform: Transform, format: OutputFormat): string {
  return createHash('sha256')
    .update(JSON.stringify([asset.md5, asset.size, transform, format]))
    .digest('hex');
}

/** Its geometry, refusing an absurd output or source before anything is read. */
export function planFor(asset: Asset, transform: Transform, config: ImageConfig): Plan {
  const width = asset.width ?? 0;
  const height = asset.height ?? 0;
  // An SVG is rasterized whole at its own size first: no larger than any output may be.
  const largest =
    asset.format === 'svg'
      ? Math.min(config.maxPixels, config.maxInputPixels)
      : config.maxInputPixels;
  if (width * height > largest) {
    throw new DomainError(
      'INVALID_PARAMS',
      `the image is ${width}×${height} px: renditions are made of images up to ${largest} pixels`,
      { max_input_pixels: largest },
    );
  }
  return planRendition(transform, { width, height }, config);
}

/**
 * The rendition from the cache, else rendered once however many ask at the same time
 * (single flight), in a turn of the render queue, then cached.
 */
export async function rendition(
  renditions: Renditions,
  asset: Asset,
  transform: Transform,
  format: OutputFormat,
): Promise<CachedRendition & { key: string }> {
  const plan = planFor(asset, transform, renditions.config);
  const key = renditionKey(asset, transform, format);
  const extension = EXTENSIONS[format];
  const cached = await renditions.cache.find(key, extension);
  if (cached) {
    renditions.counted('cached');
    return { ...cached, key };
  }
  const { result, joined } = renditions.flights.run(key, async () => {
    // Another process sharing the folder may have made it meanwhile.
    const made = await renditions.cache.find(key, extension);
    if (made) return made;
    const bytes = await renditions.queue.run(() =>
      render(renditions, asset, transform, plan, format),
    );
    return renditions.cache.store(key, extension, bytes);
  });
  const made = await result;
  renditions.counted(joined ? 'joined' : 'rendered');
  return { ...made, key };
}

async function render(
  renditions: Renditions,
  asset: Asset,
  transform: Transform,
  plan: Plan,
  format: OutputFormat,
): Promise<Buffer> {
  const sourceSize = { width: asset.width ?? 0, height: asset.height ?? 0 };
  const input = {
    plan,
    transform,
    format,
    sourceSize,
    maxInputPixels: renditions.config.maxInputPixels,
  };
  const key = storageKey(asset.path);
  if (asset.format !== 'svg') {
    return renditions.storage.withFile(key, (file) =>
      undecodable(renderImage({ ...input, source: file })),
    );
  }
  if (asset.size > MAX_SVG_BYTES) {
    throw new DomainError(
      'INVALID_PARAMS',
      `SVG files over ${MAX_SVG_BYTES} bytes are not rasterized`,
      {
        max_bytes: MAX_SVG_BYTES,
      },
    );
  }
  const bytes = await renditions.storage.withFile(key, (file) => readFile(file));
  return undecodable(renderImage({ ...input, source: bytes }));
}

/** sharp refusing the file (corrupt, truncated, over its pixel limit) is the file's fault. */
async function undecodable(rendering: Promise<Buffer>): Promise<Buffer> {
  try {
    return await rendering;
  } catch (error) {
    throw new DomainError(
      'INVALID_PARAMS',
      `the image cannot be rendered: ${(error as Error).message}`,
      {
        reason: 'undecodable',
      },
    );
  }
}
