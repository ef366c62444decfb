/**
 * Freezes a value and every plain object and array it holds, so a cached value handed to
 * many requests cannot be changed by one of them (a write throws in strict-mode code).
 * Dates, Sets and other class instances are left as they are: cached documents hold
 * them only as values callers read.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
