/**
 * Stored field values (the CMA's format) as the delivery API's output types give them.
 */

type Stored = Record<string, unknown>;

const hex2 = (value: number) => value.toString(16).padStart(2, '0');

export function colorOutput(value: unknown) {
  if (value === null || typeof value !== 'object') return null;
  const { red, green, blue, alpha } = value as {
    red: number;
    green: number;
    blue: number;
    alpha: number;
  };
  return {
    red,
    green,
    blue,
    alpha,
    hex: `#${hex2(red)}${hex2(green)}${hex2(blue)}`,
    cssRgb:
      alpha === 255
        ? `rgb(${red}, ${green}, ${blue})`
        : `rgba(${red}, ${green}, ${blue}, ${Number((alpha / 255).toFixed(2))})`,
  };
}

/** JSON fields store their text: the API serves the value it holds. */
export function jsonOutput(value: unknown) {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

export function videoOutput(value: unknown) {
  if (value === null || typeof value !== 'object') return null;
  const video = value as Stored;
  return {
    url: video.url,
    title: video.title,
    provider: video.provider,
    providerUid: video.provider_uid,
    thumbnailUrl: video.thumbnail_url,
    width: video.width,
    height: video.height,
  };
}
