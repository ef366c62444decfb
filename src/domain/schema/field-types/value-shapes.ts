import { isIsoDate, isIsoDateTime } from './iso-dates.ts';
import { isPlainObject } from './problems.ts';

/** What is wrong with a non-null value of a field type ("must be …"), or null when it fits. */
export type ValueShape = (value: unknown) => string | null;

function hasExactly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const present = Object.keys(value);
  return present.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

const isByte = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255;

const inRange = (v: unknown, limit: number) =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit;

const string: ValueShape = (v) => (typeof v === 'string' ? null : 'must be a string');

/** The shapes of the types that accept a default value. */
export const VALUE_SHAPES = {
  boolean: (v) => (typeof v === 'boolean' ? null : 'must be a boolean'),
  string,
  text: string,
  integer: (v) => (Number.isSafeInteger(v) ? null : 'must be an integer'),
  float: (v) => (typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number'),
  date: (v) => (isIsoDate(v) ? null : 'must be a date formatted YYYY-MM-DD'),
  date_time: (v) =>
    isIsoDateTime(v)
      ? null
      : 'must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SS, optional offset)',
  color: (v) =>
    isPlainObject(v) &&
    hasExactly(v, ['red', 'green', 'blue', 'alpha']) &&
    [v.red, v.green, v.blue, v.alpha].every(isByte)
      ? null
      : 'must be {red, green, blue, alpha} with integers from 0 to 255',
  json: (v) => {
    if (typeof v !== 'string') return 'must be a string containing JSON';
    try {
      JSON.parse(v);
      return null;
    } catch {
      return 'must be a string containing valid JSON';
    }
  },
  lat_lon: (v) =>
    isPlainObject(v) &&
    hasExactly(v, ['latitude', 'longitude']) &&
    inRange(v.latitude, 90) &&
    inRange(v.longitude, 180)
      ? null
      : 'must be {latitude, longitude} with latitude within ±90 and longitude within ±180',
} satisfies Record<string, ValueShape>;
