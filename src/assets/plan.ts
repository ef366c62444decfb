import { DomainError } from '../domain/errors.ts';
import type { CropMode, Side, Transform } from './transform.ts';

/**
 * From a transform and the source's size to the exact geometry of the rendition, before
 * any pixel is decoded: which region of the source is kept, the size it is resized to,
 * the canvas it is padded onto. Pure arithmetic, so the output size is known (and refused
 * when absurd) without rendering, and every fit mode is testable without images.
 */

export type Box = Readonly<{ left: number; top: number; width: number; height: number }>;
export type Size = Readonly<{ width: number; height: number }>;

/** sharp's strategies for a crop it places itself. */
export type CropStrategy = 'entropy' | 'attention';

export type Plan = Readonly<{
  /** The region of the (auto-oriented) source that is kept. */
  region: Box;
  /** The size the region is resized to; `strategy`: a cover crop sharp places itself. */
  resize: Size & Readonly<{ strategy: CropStrategy | null; upscaled: boolean }>;
  /** The output's size; larger than `resize` when the fit pads (fill, fillmax, clamp). */
  canvas: Size;
  pad: 'background' | 'edges' | null;
}>;

export type Limits = Readonly<{ maxDimension: number; maxPixels: number }>;

type Target = { width: number | null; height: number | null };

function sidePx(side: Side | null, sourceSide: number): number | null {
  if (side === null) return null;
  return 'px' in side ? side.px : side.fraction * sourceSide;
}

function clampRect(rect: NonNullable<Transform['rect']>, source: Size): Box {
  const left = Math.min(rect.x, source.width - 1);
  const top = Math.min(rect.y, source.height - 1);
  return {
    left,
    top,
    width: Math.max(1, Math.min(rect.w, source.width - left)),
    height: Math.max(1, Math.min(rect.h, source.height - top)),
  };
}

/** The requested box in output pixels: fractions resolved, `ar` applied, `dpr` multiplied. */
function target(transform: Transform, base: Size): Target {
  let width = sidePx(transform.w, base.width);
  let height = sidePx(transform.h, base.height);
  const { ar } = transform;
  if (ar !== null && isCropFit(transform)) {
    if (width !== null && height === null) height = width / ar;
    else if (height !== null && width === null) width = height * ar;
    else if (width === null && height === null) {
      const wider = base.width / base.height > ar;
      width = wider ? base.height * ar : base.width;
      height = wider ? base.height : base.width / ar;
    }
  }
  const dpr = transform.dpr;
  return {
    width: width === null ? null : width * dpr,
    height: height === null ? null : height * dpr,
  };
}

function isCropFit(transform: Transform): boolean {
  return transform.fit === 'crop' || transform.fit === 'facearea' || transform.fit === 'min';
}

/** The largest region of `base` with the aspect ratio `ratio`, placed by the crop mode. */
function cropRegion(base: Box, ratio: number, transform: Transform): Box {
  const wider = base.width / base.height > ratio;
  let width = wider ? base.height * ratio : base.width;
  let height = wider ? base.height : base.width / ratio;
  const modes = transform.crop;
  let centerX = base.width / 2;
  let centerY = base.height / 2;
  if (modes.includes('focalpoint')) {
    width /= transform.fp.z;
    height /= transform.fp.z;
    centerX = transform.fp.x * base.width;
    centerY = transform.fp.y * base.height;
  } else {
    centerX = gravity(modes, 'left', 'right', base.width, width);
    centerY = gravity(modes, 'top', 'bottom', base.height, height);
  }
  width = Math.max(1, Math.round(width));
  height = Math.max(1, Math.round(height));
  const left = Math.round(Math.min(Math.max(centerX - width / 2, 0), base.width - width));
  const top = Math.round(Math.min(Math.max(centerY - height / 2, 0), base.height - height));
  return { left: base.left + left, top: base.top + top, width, height };
}

function gravity(
  modes: readonly CropMode[],
  low: CropMode,
  high: CropMode,
  full: number,
  kept: number,
): number {
  if (modes.includes(low)) return kept / 2;
  if (modes.includes(high)) return full - kept / 2;
  return full / 2;
}

function strategyOf(transform: Transform): CropStrategy | null {
  if (transform.fit === 'facearea') return 'attention';
  if (transform.crop.includes('focalpoint')) return null;
  if (transform.crop.includes('entropy')) return 'entropy';
  if (transform.crop.includes('edges') || transform.crop.includes('faces')) return 'attention';
  return null;
}

function scaled(size: Size, factor: number): Size {
  return {
    width: Math.max(1, Math.round(size.width * factor)),
    height: Math.max(1, Math.round(size.height * factor)),
  };
}

type Geometry = { region: Box; resize: Size; canvas: Size; strategy: CropStrategy | null };

/** Inside the box keeping the ratio (clip, max, fill…); `grow`: may it upscale. */
function inside(base: Box, box: Target, grow: boolean): Size {
  const factors = [
    box.width === null ? Number.POSITIVE_INFINITY : box.width / base.width,
    box.height === null ? Number.POSITIVE_INFINITY : box.height / base.height,
  ];
  let factor = Math.min(...factors);
  if (!grow) factor = Math.min(factor, 1);
  return scaled(base, factor);
}

function geometry(transform: Transform, base: Box, box: Target): Geometry {
  const keep = { region: base, strategy: null };
  if (box.width === null && box.height === null) {
    const size = scaled(base, transform.dpr);
    return { ...keep, resize: size, canvas: size };
  }
  const both = box.width !== null && box.height !== null;
  const exact = both ? scaled({ width: box.width ?? 0, height: box.height ?? 0 }, 1) : null;
  switch (both ? transform.fit : transform.fit === 'scale' ? 'clip' : transform.fit) {
    case 'scale':
      return { ...keep, resize: exact as Size, canvas: exact as Size };
    case 'crop':
    case 'facearea': {
      const out = exact ?? inside(base, box, true);
      const strategy = exact ? strategyOf(transform) : null;
      const region =
        exact && !strategy ? cropRegion(base, out.width / out.height, transform) : base;
      return { region, resize: out, canvas: out, strategy };
    }
    case 'min': {
      if (!exact) return geometryNoUpscale(base, box);
      const region = cropRegion(base, exact.width / exact.height, transform);
      const out = scaled(exact, Math.min(1, region.width / exact.width));
      return { region, resize: out, canvas: out, strategy: null };
    }
    case 'fill':
    case 'clamp':
      return { ...keep, resize: inside(base, box, true), canvas: exact ?? inside(base, box, true) };
    case 'fillmax':
      return {
        ...keep,
        resize: inside(base, box, false),
        canvas: exact ?? inside(base, box, false),
      };
    case 'max':
      return geometryNoUpscale(base, box);
    default:
      return { ...keep, resize: inside(base, box, true), canvas: inside(base, box, true) };
  }
}

function geometryNoUpscale(base: Box, box: Target): Geometry {
  const size = inside(base, box, false);
  return { region: base, resize: size, canvas: size, strategy: null };
}

/** `max-w`, `max-h`, then `min-w`, `min-h`: the whole output scaled, its ratio kept. */
function bounded(geometry: Geometry, transform: Transform): Geometry {
  const { canvas } = geometry;
  const shrink = Math.min(
    1,
    transform.maxW === null ? 1 : transform.maxW / canvas.width,
    transform.maxH === null ? 1 : transform.maxH / canvas.height,
  );
  const grow = Math.max(
    1,
    transform.minW === null ? 1 : transform.minW / (canvas.width * shrink),
    transform.minH === null ? 1 : transform.minH / (canvas.height * shrink),
  );
  const factor = shrink * grow;
  if (factor === 1) return geometry;
  return {
    ...geometry,
    resize: scaled(geometry.resize, factor),
    canvas: scaled(canvas, factor),
  };
}

function refuseAbsurd(canvas: Size, limits: Limits): void {
  const largest = Math.max(canvas.width, canvas.height);
  if (largest > limits.maxDimension) {
    throw new DomainError(
      'INVALID_PARAMS',
      `the rendition would be ${canvas.width}×${canvas.height} px: at most ${limits.maxDimension} px a side (w, h and dpr multiply)`,
      { width: canvas.width, height: canvas.height, max_dimension: limits.maxDimension },
    );
  }
  if (canvas.width * canvas.height > limits.maxPixels) {
    throw new DomainError(
      'INVALID_PARAMS',
      `the rendition would be ${canvas.width}×${canvas.height} px: at most ${limits.maxPixels} pixels`,
      { width: canvas.width, height: canvas.height, max_pixels: limits.maxPixels },
    );
  }
}

export function planRendition(transform: Transform, source: Size, limits: Limits): Plan {
  const base: Box = transform.rect
    ? clampRect(transform.rect, source)
    : { left: 0, top: 0, width: source.width, height: source.height };
  const shaped = bounded(geometry(transform, base, target(transform, base)), transform);
  refuseAbsurd(shaped.canvas, limits);
  const padded =
    shaped.canvas.width !== shaped.resize.width || shaped.canvas.height !== shaped.resize.height;
  return {
    region: shaped.region,
    resize: {
      ...shaped.resize,
      strategy: shaped.strategy,
      upscaled:
        shaped.resize.width > shaped.region.width || shaped.resize.height > shaped.region.height,
    },
    canvas: shaped.canvas,
    pad: padded ? (transform.fit === 'clamp' ? 'edges' : 'background') : null,
  };
}
