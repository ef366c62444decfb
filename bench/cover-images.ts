// The blog's cover images for bench/cda.ts: distinct 800×600 JPEGs written to a scratch
// folder, so both servers under comparison store, analyse and serve the same files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const WIDTH = 800;
const HEIGHT = 600;

/**
 * The `index`th cover: a diagonal gradient between two colours chosen by `index`, with a
 * little grain so it encodes like a photo rather than a flat fill (and its placeholder
 * differs from the others').
 */
function coverPixels(index: number): Buffer {
  const from = [(index * 53) % 256, (index * 97 + 80) % 256, (index * 151 + 160) % 256];
  const to = [255 - (from[0] ?? 0), (from[2] ?? 0) / 2, (from[1] ?? 0) / 2];
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++) {
      const at = (y * WIDTH + x) * 3;
      const mix = (x / WIDTH + y / HEIGHT) / 2;
      const grain = ((at * 2654435761) >>> 28) & 0x07;
      for (let channel = 0; channel < 3; channel++)
        pixels[at + channel] = Math.min(
          255,
          (from[channel] ?? 0) * (1 - mix) + (to[channel] ?? 0) * mix + grain,
        );
    }
  return pixels;
}

export type CoverImages = Readonly<{ paths: readonly string[]; remove(): void }>;

/** `count` distinct cover JPEGs in a new scratch folder; `remove` deletes the folder. */
export async function makeCoverImages(count: number): Promise<CoverImages> {
  const folder = mkdtempSync(join(tmpdir(), 'cda-covers-'));
  const paths: string[] = [];
  for (let index = 0; index < count; index++) {
    const path = join(folder, `cover-${index}.jpg`);
    const jpeg = await sharp(coverPixels(index), {
      raw: { width: WIDTH, height: HEIGHT, channels: 3 },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    writeFileSync(path, jpeg);
    paths.push(path);
  }
  return { paths, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
