import { isPlainObject } from './problems.ts';

/**
 * A file value or gallery entry as answers show it: the six keys of the client's
 * `FileFieldValue`, those a request left out at their defaults (alt, title, focal point
 * and poster time null, custom data `{}`). Stored this way, so every reader (answers,
 * `nested` reads, versions, webhook payloads, duplicates) shows the same value.
 */
function filledFileValue(value: Record<string, unknown>): Record<string, unknown> {
  return {
    upload_id: value.upload_id,
    alt: value.alt ?? null,
    title: value.title ?? null,
    custom_data: value.custom_data ?? {},
    focal_point: value.focal_point ?? null,
    poster_time: value.poster_time ?? null,
  };
}

/** A value of the type with its uploads' defaults filled; other types' values as they are. */
export function filledUploadValue(fieldType: string, value: unknown): unknown {
  if (fieldType === 'file' && isPlainObject(value)) return filledFileValue(value);
  if (fieldType === 'gallery' && Array.isArray(value))
    return value.map((entry) => (isPlainObject(entry) ? filledFileValue(entry) : entry));
  return value;
}
