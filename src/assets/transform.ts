import { DomainError } from '../domain/errors.ts';

/**
 * The imgix parameters Fieldhouse renders, read from an asset URL's query into one typed,
 * validated value. Unknown parameters are ignored, as imgix ignores them; a known one with
 * a malformed value is refused (422 INVALID_PARAMS naming it), so a typo never silently
 * serves something else.
 */

export const FITS = [
  'clip',
  'crop',
  'fill',
  'fillmax',
  'max',
  'min',
  'scale',
  'clamp',
  'facearea',
] as const;
export type Fit = (typeof FITS)[number];

export const OUTPUT_FORMATS = [
  'jpg',
  'pjpg',
  'png',
  'png8',
  'png32',
  'webp',
  'avif',
  'gif',
] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const CROP_MODES = [
  'focalpoint',
  'faces',
  'entropy',
  'edges',
  'top',
  'bottom',
  'left',
  'right',
  'center',
] as const;
export type CropMode = (typeof CROP_MODES)[number];

/** A requested side: pixels, or a fraction (0 < v < 1) of the source's side. */
export type Side = Readonly<{ px: number } | { fraction: number }>;

export type Rgba = Readonly<{ r: number; g: number; b: number; alpha: number }>;

export type Transform = Readonly<{
  w: Side | null;
  h: Side | null;
  fit: Fit;
  crop: readonly CropMode[];
  /** Focal point in [0, 1] of the (rect-cut) source, and a zoom ≥ 1 around it. */
  fp: Readonly<{ x: number; y: number; z: number }>;
  fm: OutputFormat | null;
  autoFormat: boolean;
  autoCompress: boolean;
  q: number | null;
  dpr: number;
  /** Width over height. */
  ar: number | null;
  rect: Readonly<{ x: number; y: number; w: number; h: number }> | null;
  maxW: number | null;
  maxH: number | null;
  minW: number | null;
  minH: number | null;
  bg: Rgba | null;
  blur: number | null;
}>;

/** Parameter names that ask for a rendition; any other leaves the original as it is. */
const RENDER_PARAMS = new Set([
  'w',
  'h',
  'fit',
  'crop',
  'fp-x',
  'fp-y',
  'fp-z',
  'fm',
  'auto',
  'q',
  'dpr',
  'ar',
  'rect',
  'max-w',
  'max-h',
  'min-w',
  'min-h',
  'bg',
  'blur',
]);

/** Beyond any output limit: refused here, before arithmetic on them overflows anything. */
const MAX_SIDE_PARAM = 100_000;

function invalid(name: string, raw: string, expected: string): DomainError {
  return new DomainError('INVALID_PARAMS', `${name} must be ${expected} (got "${raw}")`, {
    param: name,
    value: raw,
  });
}

function number(name: string, raw: string, min: number, max: number, minOpen = false): number {
  const value = /^\s*[+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || value > max || (minOpen ? value <= min : value < min)) {
    throw invalid(name, raw, `a number ${minOpen ? 'above' : 'from'} ${min} to ${max}`);
  }
  return value;
}

function side(name: string, raw: string): Side {
  const value = number(name, raw, 0, MAX_SIDE_PARAM, true);
  return value < 1 ? { fraction: value } : { px: Math.round(value) };
}

function oneOf<T extends string>(name: string, raw: string, values: readonly T[]): T {
  const value = raw.trim().toLowerCase();
  if (!(values as readonly string[]).includes(value)) {
    throw invalid(name, raw, `one of ${values.join(', ')}`);
  }
  return value as T;
}

function words(raw: string): string[] {
  return raw
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
}

function aspectRatio(raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(raw);
  const ratio = match ? Number(match[1]) / Number(match[2]) : Number.NaN;
  if (!Number.isFinite(ratio) || ratio <= 0 || ratio > 1000 || ratio < 0.001) {
    throw invalid('ar', raw, 'a ratio W:H such as 16:9');
  }
  return ratio;
}

function rect(raw: string): Transform['rect'] {
  const parts = raw.split(',');
  if (parts.length !== 4) throw invalid('rect', raw, 'x,y,w,h in pixels');
  const [x = 0, y = 0, w = 0, h = 0] = parts.map((part) =>
    Math.round(number('rect', part, 0, MAX_SIDE_PARAM)),
  );
  if (w < 1 || h < 1) throw invalid('rect', raw, 'x,y,w,h with w and h at least 1');
  return { x, y, w, h };
}

/** imgix colours: RGB, ARGB, RRGGBB or AARRGGBB hex, `#` optional. */
function color(raw: string): Rgba {
  const hex = raw.trim().replace(/^#/, '');
  if (!/^([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(hex)) {
    throw invalid('bg', raw, 'a hex colour (RGB, ARGB, RRGGBB or AARRGGBB)');
  }
  const full = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
  const argb = full.length === 8 ? full : `ff${full}`;
  const byte = (at: number) => Number.parseInt(argb.slice(at, at + 2), 16);
  return { alpha: byte(0) / 255, r: byte(2), g: byte(4), b: byte(6) };
}

/**
 * The rendition the query asks for, or null when it names no render parameter (the
 * original is served). A repeated parameter counts with its last value.
 */
export function parseTransform(query: URLSearchParams): Transform | null {
  const last = new Map<string, string>();
  for (const [name, value] of query) if (RENDER_PARAMS.has(name)) last.set(name, value);
  if (last.size === 0) return null;
  const read = <T>(name: string, parse: (raw: string) => T): T | null => {
    const raw = last.get(name);
    return raw === undefined ? null : parse(raw);
  };
  const auto = read('auto', words) ?? [];
  const fp = (name: string) => read(name, (raw) => number(name, raw, 0, 1)) ?? 0.5;
  const bound = (name: string) =>
    read(name, (raw) => Math.round(number(name, raw, 1, MAX_SIDE_PARAM)));
  return {
    w: read('w', (raw) => side('w', raw)),
    h: read('h', (raw) => side('h', raw)),
    fit: read('fit', (raw) => oneOf('fit', raw, FITS)) ?? 'clip',
    crop: read('crop', (raw) => words(raw).map((word) => oneOf('crop', word, CROP_MODES))) ?? [],
    fp: {
      x: fp('fp-x'),
      y: fp('fp-y'),
      z: read('fp-z', (raw) => number('fp-z', raw, 1, 100)) ?? 1,
    },
    fm: read('fm', (raw) =>
      raw.trim().toLowerCase() === 'jpeg' ? 'jpg' : oneOf('fm', raw, OUTPUT_FORMATS),
    ),
    autoFormat: auto.includes('format'),
    autoCompress: auto.includes('compress'),
    q: read('q', (raw) => Math.round(number('q', raw, 1, 100))),
    dpr: read('dpr', (raw) => number('dpr', raw, 0, 5, true)) ?? 1,
    ar: read('ar', aspectRatio),
    rect: read('rect', rect),
    maxW: bound('max-w'),
    maxH: bound('max-h'),
    minW: bound('min-w'),
    minH: bound('min-h'),
    bg: read('bg', color),
    blur: read('blur', (raw) => number('blur', raw, 0, 2000)),
  };
}
