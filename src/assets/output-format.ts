import type { OutputFormat, Transform } from './transform.ts';

/**
 * The format a rendition is encoded in: `fm` when given; else, with `auto=format`, AVIF
 * or WebP when the request's Accept names them (the response then varies by Accept);
 * else the source's own format when browsers show it, JPEG (or PNG for a format that
 * may hold transparency) otherwise.
 */
export type Negotiated = Readonly<{ format: OutputFormat; variesByAccept: boolean }>;

const WEB_FORMATS: Readonly<Record<string, OutputFormat>> = {
  jpg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
};

/** Formats that may carry transparency: rasterized as PNG when no format is asked for. */
const ALPHA_SOURCES = new Set(['svg', 'tiff']);

export function negotiateFormat(
  transform: Transform,
  sourceFormat: string | null,
  accept: string | undefined,
): Negotiated {
  if (transform.fm) return { format: transform.fm, variesByAccept: false };
  const fallback: OutputFormat =
    WEB_FORMATS[sourceFormat ?? ''] ?? (ALPHA_SOURCES.has(sourceFormat ?? '') ? 'png' : 'jpg');
  if (!transform.autoFormat) return { format: fallback, variesByAccept: false };
  const accepted = (accept ?? '').toLowerCase();
  if (accepted.includes('image/avif')) return { format: 'avif', variesByAccept: true };
  if (accepted.includes('image/webp')) return { format: 'webp', variesByAccept: true };
  return { format: fallback, variesByAccept: true };
}

export const CONTENT_TYPES: Readonly<Record<OutputFormat, string>> = {
  jpg: 'image/jpeg',
  pjpg: 'image/jpeg',
  png: 'image/png',
  png8: 'image/png',
  png32: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** The file extension a cached rendition of the format is kept under. */
export const EXTENSIONS: Readonly<Record<OutputFormat, string>> = {
  jpg: 'jpg',
  pjpg: 'jpg',
  png: 'png',
  png8: 'png',
  png32: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
};
