import { Issues } from '../errors.ts';
import type { UploadDefaultFieldMetadata } from './upload.ts';

/** The metadata a create or an update may set; absent keys keep their values. */
export type UploadMetadataInput = {
  author?: string | null;
  copyright?: string | null;
  notes?: string | null;
  tags?: string[];
  defaultFieldMetadata?: Record<string, unknown>;
};

type FocalPoint = { x: number; y: number } | null;

const LOCALIZED = ['alt', 'title', 'custom_data'] as const;

export function emptyDefaultFieldMetadata(locales: readonly string[]): UploadDefaultFieldMetadata {
  return {
    alt: Object.fromEntries(locales.map((l) => [l, null])),
    title: Object.fromEntries(locales.map((l) => [l, null])),
    custom_data: Object.fromEntries(locales.map((l) => [l, {}])),
    focal_point: null,
    poster_time: null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validFocalPoint(value: unknown): value is FocalPoint {
  if (value === null) return true;
  if (!isObject(value)) return false;
  const { x, y } = value;
  return typeof x === 'number' && typeof y === 'number' && x >= 0 && x <= 1 && y >= 0 && y <= 1;
}

/**
 * The legacy locale-keyed shape (`{en: {alt, title, …}}`), which the client still types
 * for older projects, turned field-keyed; a field-keyed patch is returned as it is.
 */
function fieldKeyed(patch: Record<string, unknown>, locales: readonly string[]) {
  const keys = Object.keys(patch);
  if (keys.length === 0 || !keys.every((key) => locales.includes(key))) return patch;
  const result: Record<string, Record<string, unknown> | unknown> = {};
  for (const [locale, values] of Object.entries(patch)) {
    if (!isObject(values)) continue;
    for (const [key, value] of Object.entries(values)) {
      if ((LOCALIZED as readonly string[]).includes(key)) {
        result[key] = { ...(result[key] as Record<string, unknown>), [locale]: value };
      } else result[key] = value;
    }
  }
  return result;
}

/**
 * Applies a `default_field_metadata` patch: absent keys and absent locales keep their
 * values. Reports under `default_field_metadata` a locale the site lacks, a wrong value
 * type or a focal point outside [0, 1].
 */
export function patchDefaultFieldMetadata(
  current: UploadDefaultFieldMetadata,
  patch: Record<string, unknown>,
  locales: readonly string[],
  issues: Issues,
): UploadDefaultFieldMetadata {
  const field = 'default_field_metadata';
  const next: UploadDefaultFieldMetadata = structuredClone(current);
  for (const [key, value] of Object.entries(fieldKeyed(patch, locales))) {
    if (key === 'focal_point') {
      if (validFocalPoint(value)) next.focal_point = value;
      else issues.add(field, 'VALIDATION_INVALID', 'focal_point needs x and y between 0 and 1');
    } else if (key === 'poster_time') {
      if (value === null || (typeof value === 'number' && value >= 0)) next.poster_time = value;
      else issues.add(field, 'VALIDATION_INVALID', 'poster_time must be a number of seconds');
    } else if ((LOCALIZED as readonly string[]).includes(key) && isObject(value)) {
      for (const [locale, localeValue] of Object.entries(value)) {
        if (!locales.includes(locale)) {
          issues.add(field, 'VALIDATION_INVALID', `the site has no locale "${locale}"`);
        } else if (key === 'custom_data') {
          if (isObject(localeValue)) next.custom_data[locale] = localeValue;
          else issues.add(field, 'VALIDATION_INVALID', 'custom_data holds an object per locale');
        } else if (localeValue === null || typeof localeValue === 'string') {
          next[key as 'alt' | 'title'][locale] = localeValue;
        } else issues.add(field, 'VALIDATION_INVALID', `${key} holds a string per locale`);
      }
    } else issues.add(field, 'VALIDATION_INVALID', `"${key}" is not default metadata`);
  }
  return next;
}

/** Tags as kept: trimmed, without blanks or repeats, in the order given. */
export function normalizedTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

export function newIssues(): Issues {
  return new Issues('Upload');
}
