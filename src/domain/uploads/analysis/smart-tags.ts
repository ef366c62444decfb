import type { UploadColor } from '../upload.ts';

/** A colour's common name, from its hue, saturation and lightness. */
export function colorWord({ red, green, blue }: UploadColor): string {
  const r = red / 255;
  const g = green / 255;
  const b = blue / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const chroma = max - min;
  if (lightness > 0.92) return 'white';
  if (lightness < 0.1) return 'black';
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * lightness - 1));
  if (saturation < 0.15) return 'gray';
  let hue =
    max === r ? ((g - b) / chroma) % 6 : max === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
  hue = (hue * 60 + 360) % 360;
  if (hue >= 15 && hue < 45 && lightness < 0.45) return 'brown';
  if (hue < 15 || hue >= 345) return 'red';
  if (hue < 40) return 'orange';
  if (hue < 70) return 'yellow';
  if (hue < 165) return 'green';
  if (hue < 195) return 'cyan';
  if (hue < 255) return 'blue';
  if (hue < 290) return 'purple';
  return 'pink';
}

/** Fieldhouse's smart tags: the words of an image's dominant colours, each once. */
export function smartTagsOf(colors: readonly UploadColor[]): string[] {
  return [...new Set(colors.map(colorWord))];
}
