import type { Sharp } from 'sharp';
import { loadSharp } from '../domain/uploads/analysis/sharp.ts';
import type { Plan } from './plan.ts';
import type { OutputFormat, Rgba, Transform } from './transform.ts';

/**
 * One sharp pipeline from the source to the encoded rendition, as the plan (plan.ts) sized
 * it: auto-orient, cut the region, resize, pad, flatten, blur, encode. Metadata (EXIF, GPS
 * included) is never copied into a rendition.
 */

export type RenderInput = Readonly<{
  /** A file path, or the bytes (SVG is rasterized from bytes: no base to load files from). */
  source: string | Buffer;
  /** As displayed (EXIF orientation applied), as the plan measured it. */
  sourceSize: Readonly<{ width: number; height: number }>;
  plan: Plan;
  transform: Transform;
  format: OutputFormat;
  maxInputPixels: number;
}>;

const WHITE: Rgba = { r: 255, g: 255, b: 255, alpha: 1 };
const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, alpha: 0 };
/** Lossy quality when neither `q` nor `auto=compress` sets one (DatoCMS's default). */
const DEFAULT_QUALITY = 75;
const COMPRESSED_QUALITY = 45;

function hasAlpha(format: OutputFormat): boolean {
  return format !== 'jpg' && format !== 'pjpg';
}

/** imgix's blur runs 0–2000; sharp's sigma past ~100 only costs more time. */
function sigma(blur: number): number {
  return Math.min(100, Math.max(0.3, blur / 10));
}

function shaped(pipeline: Sharp, input: RenderInput): Sharp {
  const { plan, transform, format } = input;
  const { region, resize, canvas } = plan;
  // Only a real cut: a pre-resize extract turns off JPEG and WebP shrink-on-load.
  if (
    region.left ||
    region.top ||
    region.width !== input.sourceSize.width ||
    region.height !== input.sourceSize.height
  ) {
    pipeline.extract(region);
  }
  if (resize.strategy || resize.width !== region.width || resize.height !== region.height) {
    pipeline.resize(resize.width, resize.height, {
      fit: resize.strategy ? 'cover' : 'fill',
      ...(resize.strategy ? { position: resize.strategy } : {}),
    });
  }
  if (plan.pad) {
    const left = Math.floor((canvas.width - resize.width) / 2);
    const top = Math.floor((canvas.height - resize.height) / 2);
    pipeline.extend({
      left,
      top,
      right: canvas.width - resize.width - left,
      bottom: canvas.height - resize.height - top,
      extendWith: plan.pad === 'edges' ? 'copy' : 'background',
      background: transform.bg ?? (hasAlpha(format) ? TRANSPARENT : WHITE),
    });
  }
  if (transform.bg || !hasAlpha(format)) pipeline.flatten({ background: transform.bg ?? WHITE });
  if (transform.blur) pipeline.blur(sigma(transform.blur));
  return pipeline;
}

function encoded(pipeline: Sharp, format: OutputFormat, transform: Transform): Sharp {
  const quality = transform.q ?? (transform.autoCompress ? COMPRESSED_QUALITY : DEFAULT_QUALITY);
  switch (format) {
    case 'jpg':
    case 'pjpg':
      return pipeline.jpeg({ quality, progressive: format === 'pjpg' });
    case 'png8':
      return pipeline.png({ palette: true, quality });
    case 'png':
    case 'png32':
      return pipeline.png({ palette: transform.autoCompress });
    // Effort 2 (of 6 for WebP, 9 for AVIF) rather than sharp's 4: a first rendition is
    // made while a browser waits, and the default takes two to three times longer for a
    // few per cent fewer bytes.
    case 'webp':
      return pipeline.webp({ quality, effort: 2 });
    case 'avif':
      return pipeline.avif({ quality, effort: 2 });
    case 'gif':
      return pipeline.gif();
  }
}

export async function renderImage(input: RenderInput): Promise<Buffer> {
  const sharp = await loadSharp();
  const pipeline = sharp(input.source, {
    autoOrient: true,
    limitInputPixels: input.maxInputPixels,
    failOn: 'error',
  });
  return encoded(shaped(pipeline, input), input.format, input.transform).toBuffer();
}
