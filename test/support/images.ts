import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import sharp from 'sharp';

const folder = mkdtempSync(join(tmpdir(), 'fieldhouse-images-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Writes `bytes` as `name` in a folder removed after the file's tests; returns its path. */
export function localFile(name: string, bytes: Buffer | string): string {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
}

/** A flat-colour image (PNG by default) of the given size. */
export async function solidImage(
  width: number,
  height: number,
  color: { r: number; g: number; b: number },
  format: 'png' | 'jpeg' | 'webp' = 'png',
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG carrying camera EXIF tags and a GPS position. */
export async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Fieldcam', Model: 'FC-1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' },
    })
    .toBuffer();
}

/** Noise: an image that compresses badly, about `bytes` long as a PNG. */
export async function noisyPng(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

export function md5(path: string): string {
  return createHash('md5').update(readFileSync(path)).digest('hex');
}
