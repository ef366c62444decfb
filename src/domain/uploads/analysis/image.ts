import { encode as encodeBlurhash } from 'blurhash';
import type { Metadata } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import type { UploadColor } from '../upload.ts';
import { dominantColors } from './colors.ts';
import { loadSharp } from './sharp.ts';

export type ImageFacts = {
  format: string;
  width: number;
  height: number;
  blurhash: string;
  thumbhash: string;
  colors: UploadColor[];
  hasExif: boolean;
};

/** sharp's format names → the extensions the API shows. */
function apiFormat(metadata: Metadata): string {
  if (metadata.format === 'jpeg') return 'jpg';
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : 'heic';
  return metadata.format;
}

type Rgba = { data: Buffer; width: number; height: number };

async function thumbnail(input: string | Buffer, size: number, raw?: Rgba): Promise<Rgba> {
  const sharp = await loadSharp();
  const source = raw
    ? sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
    : sharp(input).rotate();
  const { data, info } = await source
    .resize(size, size, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * What an image shows, or null when sharp cannot read the file as one. Width and height
 * are as displayed (EXIF orientation applied). Blurhash (4×3 components) is made from a
 * ≤ 64 px thumbnail, ThumbHash from a ≤ 100 px one, the colours from the 64 px one.
 */
export async function analyzeImage(file: string): Promise<ImageFacts | null> {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(file).metadata();
  } catch {
    return null;
  }
  if (!metadata.width || !metadata.height) return null;
  const rotated = (metadata.orientation ?? 1) >= 5;
  const large = await thumbnail(file, 100);
  const small = await thumbnail(file, 64, large);
  return {
    format: apiFormat(metadata),
    width: rotated ? metadata.height : metadata.width,
    height: rotated ? metadata.width : metadata.height,
    blurhash: encodeBlurhash(new Uint8ClampedArray(small.data), small.width, small.height, 4, 3),
    thumbhash: Buffer.from(rgbaToThumbHash(large.width, large.height, large.data)).toString(
      'base64',
    ),
    colors: dominantColors(small.data),
    hasExif: metadata.exif !== undefined,
  };
}
