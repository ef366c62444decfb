// The JSON of resources kept in the caches, by resource: deep-frozen (deepFreeze) and
// handed to every request that reads them, they cannot change, so each is serialized once.
const jsonOfKept = new WeakMap<object, string>();

/**
 * The reply serializer: an answer that is a kept resource (or list of them) as
 * `{ data }`, the shape of every cached read, is written from the JSON made of that
 * resource the first time; anything else as JSON.stringify writes it.
 */
export function documentJson(payload: unknown): string {
  const data = keptData(payload);
  if (data === undefined) return JSON.stringify(payload);
  return `{"data":${jsonOf(data)}}`;
}

/** A value's JSON: made once for a kept (deep-frozen) object, as `documentJson` does. */
export function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value))
    return JSON.stringify(value);
  let json = jsonOfKept.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    jsonOfKept.set(value, json);
  }
  return json;
}

/** The `data` of a `{ data }` document when it is frozen: only deepFreeze freezes. */
function keptData(payload: unknown): object | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const keys = Object.keys(payload);
  if (keys.length !== 1 || keys[0] !== 'data') return undefined;
  const data = (payload as { data: unknown }).data;
  return typeof data === 'object' && data !== null && Object.isFrozen(data) ? data : undefined;
}
