/**
 * imgix parameters on asset URLs, by name: what the delivery API's `url(imgixParams)` and
 * `responsiveImage` build, and what the asset route reads (transform.ts). GraphQL's
 * `ImgixParams` spells them in camelCase (`fpX`, `maxW`, `fillColor`); URLs carry the
 * imgix names (`fp-x`, `max-w`, `fill-color`).
 */

/** A parameter's value as GraphQL or a front-end gives it: lists are comma-joined. */
export type ImgixParamValue =
  | string
  | number
  | boolean
  | readonly (string | number)[]
  | null
  | undefined;

export type ImgixParams = Readonly<Record<string, ImgixParamValue>>;

/** `fpX` → `fp-x`, `maxW` → `max-w`; names already in imgix form are kept. */
export function imgixName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The value as it goes in a URL; null for an absent one (null, undefined, empty list). */
export function imgixValue(value: ImgixParamValue): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.join(',');
  return String(value);
}

/**
 * `url` with `params` set in imgix form: a parameter the URL already has is replaced, and
 * all of them are sorted by name, as DatoCMS's asset URLs are (`?dpr=2&fm=webp&w=400`), so
 * equal parameters always make the same URL (and share one cached rendition).
 */
export function imgixUrl(url: string, params: ImgixParams): string {
  const parsed = new URL(url);
  const merged = new Map(parsed.searchParams);
  for (const [name, value] of Object.entries(params)) {
    const text = imgixValue(value);
    if (text === null) merged.delete(imgixName(name));
    else merged.set(imgixName(name), text);
  }
  const query = [...merged]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${queryPart(name)}=${queryPart(value)}`)
    .join('&');
  parsed.search = query;
  return parsed.toString();
}

/** Percent-encoded, but for `,` and `:`, which lists and ratios read better without. */
function queryPart(text: string): string {
  return encodeURIComponent(text).replace(/%2C/g, ',').replace(/%3A/g, ':');
}
