import type { UploadColor } from '../upload.ts';

const MAX_COLORS = 5;

/**
 * Up to five dominant colours of RGBA pixels, most prevalent first: pixels are binned by
 * the top 4 bits of each channel (mostly transparent ones left out) and each bin shows
 * the mean of its pixels.
 */
export function dominantColors(rgba: Buffer): UploadColor[] {
  const bins = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let i = 0; i + 3 < rgba.length; i += 4) {
    const [r, g, b, a] = [rgba[i] ?? 0, rgba[i + 1] ?? 0, rgba[i + 2] ?? 0, rgba[i + 3] ?? 0];
    if (a < 128) continue;
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    const bin = bins.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bin.n += 1;
    bin.r += r;
    bin.g += g;
    bin.b += b;
    bins.set(key, bin);
  }
  return [...bins.values()]
    .sort((x, y) => y.n - x.n)
    .slice(0, MAX_COLORS)
    .map((bin) => ({
      red: Math.round(bin.r / bin.n),
      green: Math.round(bin.g / bin.n),
      blue: Math.round(bin.b / bin.n),
      alpha: 255,
    }));
}
