import { isValidId } from '../../ids.ts';
import { blockRefProblem, type UploadMention, type ValueReferences } from './block-refs.ts';
import { dastProblem } from './dast.ts';
import { isPlainObject, quoteList } from './problems.ts';
import type { FieldType } from './types.ts';
import { VALUE_SHAPES } from './value-shapes.ts';

/**
 * What is wrong with a non-null record value of a field type ("must be …"), or null when it
 * fits. References the value makes (records, blocks, uploads) are added to `refs`.
 */
export type RecordValueShape = (value: unknown, refs: ValueReferences) => string | null;

/** Optional keys with their checks; unknown keys are refused so typos do not vanish. */
function objectProblem(
  value: unknown,
  keys: Readonly<Record<string, (v: unknown) => boolean>>,
  required: readonly string[],
  describe: string,
): string | null {
  if (!isPlainObject(value)) return `must be ${describe}`;
  const unknown = Object.keys(value).filter((key) => !Object.hasOwn(keys, key));
  if (unknown.length > 0) return `has unknown keys ${quoteList(unknown)}; must be ${describe}`;
  for (const key of required) {
    if (value[key] === undefined) return `needs "${key}"; must be ${describe}`;
  }
  for (const [key, check] of Object.entries(keys)) {
    if (value[key] !== undefined && !check(value[key]))
      return `has an invalid "${key}"; must be ${describe}`;
  }
  return null;
}

const isId = (v: unknown): v is string => typeof v === 'string' && isValidId(v);
const isString = (v: unknown) => typeof v === 'string';
const orNull = (check: (v: unknown) => boolean) => (v: unknown) => v === null || check(v);
const isUnit = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 1;
const isSize = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

const UPLOAD_DESCRIPTION =
  '{upload_id, alt?, title?, custom_data?, focal_point?: {x, y} (0–1), poster_time?}';

/** A file value or gallery entry as a request sends it (the client's FileFieldValueInRequest). */
function uploadProblem(value: unknown, refs: ValueReferences): string | null {
  const problem = objectProblem(
    value,
    {
      upload_id: isId,
      alt: orNull(isString),
      title: orNull(isString),
      custom_data: isPlainObject,
      focal_point: orNull(
        (v) => isPlainObject(v) && Object.keys(v).length === 2 && isUnit(v.x) && isUnit(v.y),
      ),
      poster_time: orNull((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0),
    },
    ['upload_id'],
    UPLOAD_DESCRIPTION,
  );
  if (!problem) refs.uploads.push(value as UploadMention);
  return problem;
}

function listProblem(
  value: unknown,
  entry: (item: unknown, index: number) => string | null,
  describe: string,
): string | null {
  if (!Array.isArray(value)) return `must be an array of ${describe}`;
  for (const [index, item] of value.entries()) {
    const problem = entry(item, index);
    if (problem) return `entry ${index}: ${problem}`;
  }
  return null;
}

const TWITTER_CARDS = ['summary', 'summary_large_image'];

/** Every field type's record value shape (the client's `src/fieldTypes/*`). */
export const RECORD_VALUE_SHAPES: Readonly<Record<FieldType, RecordValueShape>> = {
  boolean: VALUE_SHAPES.boolean,
  string: VALUE_SHAPES.string,
  text: VALUE_SHAPES.text,
  integer: VALUE_SHAPES.integer,
  float: VALUE_SHAPES.float,
  date: VALUE_SHAPES.date,
  date_time: VALUE_SHAPES.date_time,
  color: VALUE_SHAPES.color,
  json: VALUE_SHAPES.json,
  lat_lon: VALUE_SHAPES.lat_lon,
  slug: VALUE_SHAPES.string,
  link: (value, refs) => {
    if (!isId(value)) return 'must be the id of a record';
    refs.records.push(value);
    return null;
  },
  links: (value, refs) => {
    const problem = listProblem(
      value,
      (id) => (isId(id) ? null : `${JSON.stringify(id)} is not a record id`),
      'record ids',
    );
    if (!problem) refs.records.push(...(value as string[]));
    return problem;
  },
  seo: (value, refs) => {
    const problem = objectProblem(
      value,
      {
        title: orNull(isString),
        description: orNull(isString),
        image: orNull(isId),
        twitter_card: orNull((v) => TWITTER_CARDS.includes(v as string)),
        no_index: (v) => typeof v === 'boolean',
      },
      [],
      '{title?, description?, image? (upload id), twitter_card? ("summary" | "summary_large_image"), no_index? (boolean)}',
    );
    const image = isPlainObject(value) ? value.image : undefined;
    if (!problem && typeof image === 'string') refs.uploads.push({ upload_id: image });
    return problem;
  },
  video: (value) =>
    objectProblem(
      value,
      {
        url: isHttpUrl,
        width: isSize,
        height: isSize,
        provider: (v) => ['youtube', 'vimeo', 'facebook'].includes(v as string),
        provider_uid: (v) => typeof v === 'string' && v !== '',
        thumbnail_url: isHttpUrl,
        title: isString,
      },
      ['url', 'width', 'height', 'provider', 'provider_uid', 'thumbnail_url', 'title'],
      '{url, width, height, provider ("youtube" | "vimeo" | "facebook"), provider_uid, thumbnail_url, title}',
    ),
  file: uploadProblem,
  gallery: (value, refs) =>
    listProblem(value, (entry) => uploadProblem(entry, refs), `uploads ${UPLOAD_DESCRIPTION}`),
  rich_text: (value, refs) => {
    const problem = listProblem(value, blockRefProblem, 'blocks (block ids or block objects)');
    if (!problem) refs.blocks.push(...(value as ValueReferences['blocks']));
    return problem;
  },
  single_block: (value, refs) => {
    const problem = blockRefProblem(value);
    if (!problem) refs.blocks.push(value as ValueReferences['blocks'][number]);
    return problem;
  },
  structured_text: dastProblem,
};
