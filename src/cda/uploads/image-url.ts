import { thumbHashToDataURL } from 'thumbhash';
import { BoundedMemo } from '../../bounded-memo.ts';
import { type ImgixArgs, imgixQuery } from './imgix-params.ts';

/** What an image URL is built from: where the file is served and what is known of it. */
export type ImageSource = Readonly<{
  /** The upload's URL without parameters (assets base + path). */
  url: string;
  width: number | null;
  height: number | null;
  focalPoint: Readonly<{ x: number; y: number }> | null;
}>;

/**
 * The upload's URL with `params` in imgix's spelling, sorted by name. `crop: [focalpoint]`
 * without `fpX`/`fpY` adds the focal point the value or the upload sets.
 */
export function imageUrl(source: ImageSource, params: ImgixArgs | null | undefined): string {
  const given: Record<string, unknown> = { ...(params ?? {}) };
  const crop = given.crop;
  if (
    Array.isArray(crop) &&
    crop.includes('focalpoint') &&
    source.focalPoint &&
    given.fpX == null &&
    given.fpY == null
  ) {
    given.fpX = source.focalPoint.x;
    given.fpY = source.focalPoint.y;
  }
  const query = imgixQuery(given);
  if (query.length === 0) return source.url;
  const search = new URLSearchParams(query).toString();
  return `${source.url}?${search}`;
}

const positive = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;

/** `16:9` → 16/9; anything else null. */
function aspectRatioOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(value.trim());
  if (!match) return null;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : null;
}

/**
 * The size of the transformed image, by imgix's resize rules for `w`, `h`, `ar`, `fit`
 * and `maxW`/`maxH`: `clip` (the default) and `max` keep the aspect ratio inside the box
 * (`max` never enlarges), `crop`/`fill`/`scale` give the box itself. Widths and heights
 * below 1 are fractions of the source's.
 */
export function outputSize(
  sourceWidth: number,
  sourceHeight: number,
  params: ImgixArgs | null | undefined,
): { width: number; height: number } {
  const given = params ?? {};
  const ratio = sourceWidth / sourceHeight;
  const relative = (value: number | null, of: number) =>
    value === null ? null : value <= 1 ? value * of : value;
  let w = relative(positive(given.w), sourceWidth);
  let h = relative(positive(given.h), sourceHeight);
  const fit = typeof given.fit === 'string' ? given.fit : 'clip';
  const boxRatio = aspectRatioOf(given.ar);
  if (boxRatio !== null && fit === 'crop') {
    if (w !== null && h === null) h = w / boxRatio;
    else if (h !== null && w === null) w = h * boxRatio;
    else if (w === null && h === null) {
      if (ratio > boxRatio) {
        h = sourceHeight;
        w = h * boxRatio;
      } else {
        w = sourceWidth;
        h = w / boxRatio;
      }
    }
  }
  let width: number;
  let height: number;
  if (w !== null && h !== null) {
    if (fit === 'crop' || fit === 'fill' || fit === 'scale' || fit === 'fillmax') {
      width = w;
      height = h;
    } else {
      const scale = Math.min(w / sourceWidth, h / sourceHeight);
      const bounded = fit === 'max' ? Math.min(scale, 1) : scale;
      width = sourceWidth * bounded;
      height = sourceHeight * bounded;
    }
  } else if (w !== null) {
    width = fit === 'max' ? Math.min(w, sourceWidth) : w;
    height = width / ratio;
  } else if (h !== null) {
    height = fit === 'max' ? Math.min(h, sourceHeight) : h;
    width = height * ratio;
  } else {
    width = sourceWidth;
    height = sourceHeight;
  }
  const maxW = positive(given.maxW);
  const maxH = positive(given.maxH);
  const shrink = Math.min(1, maxW === null ? 1 : maxW / width, maxH === null ? 1 : maxH / height);
  return {
    width: Math.max(1, Math.round(width * shrink)),
    height: Math.max(1, Math.round(height * shrink)),
  };
}

/** DatoCMS's `srcSet` density steps. */
const DENSITIES = [0.25, 0.5, 0.75, 1, 1.5, 2, 3];

export type ResponsiveImageValue = Readonly<{
  src: string;
  srcSet: string;
  webpSrcSet: string;
  sizes: string;
  width: number;
  height: number;
  aspectRatio: number;
  alt: string | null;
  title: string | null;
  base64: string | null;
  bgColor: string | null;
}>;

/**
 * Placeholders by thumbhash: rendering one (a tiny PNG, deflated and base64-encoded) took
 * 0.2 ms, twenty times on a list page of covers, the same images every time. Each is 1–3 KB.
 */
const placeholders = new BoundedMemo<string, string | null>(1000);

/** A placeholder for the image: the thumbhash rendered as a tiny PNG data URI. */
export function placeholderDataUri(thumbhash: string | null): string | null {
  if (!thumbhash) return null;
  return placeholders.get(thumbhash, () => {
    try {
      return thumbHashToDataURL(Buffer.from(thumbhash, 'base64'));
    } catch {
      return null;
    }
  });
}

/**
 * `responsiveImage`: the transformed image's size and URLs at each density step (those
 * wider than the source dropped, 1× always kept), once as requested and once as WebP.
 * Null for a file that is not an image with known dimensions.
 */
export function responsiveImage(
  source: ImageSource,
  params: ImgixArgs | null | undefined,
  extra: Readonly<{
    sizes: string | null | undefined;
    alt: string | null;
    title: string | null;
    thumbhash: string | null;
    bgColor: string | null;
  }>,
): ResponsiveImageValue | null {
  if (!source.width || !source.height) return null;
  const { width, height } = outputSize(source.width, source.height, params);
  const densities = DENSITIES.filter(
    (density) => density === 1 || width * density <= (source.width as number),
  );
  const srcSetOf = (overrides: ImgixArgs) =>
    densities
      .map(
        (density) =>
          `${imageUrl(source, { ...params, ...overrides, dpr: density })} ${Math.round(width * density)}w`,
      )
      .join(',');
  return {
    src: imageUrl(source, params),
    srcSet: srcSetOf({}),
    webpSrcSet: srcSetOf({ fm: 'webp' }),
    sizes: extra.sizes ?? `(max-width: ${width}px) 100vw, ${width}px`,
    width,
    height,
    aspectRatio: width / height,
    alt: extra.alt,
    title: extra.title,
    base64: placeholderDataUri(extra.thumbhash),
    bgColor: extra.bgColor,
  };
}
