import { isDeepStrictEqual } from 'node:util';

// An update event keeps the entity and its previous state. Most attributes are the same in
// both (an update of a title leaves a long text as it was), so the previous state is
// stored with only the attributes that differ, and the names of those it shares with the
// entity under UNCHANGED; delivery puts them back (previousAsSent) before any payload is
// built. A resource never has that key, so a previous state stored whole (before this,
// or sharing nothing) is sent as it is.

const UNCHANGED = 'fieldhouse_unchanged_attributes';

type Resource = { attributes?: Record<string, unknown> } & Record<string, unknown>;

function isResource(value: unknown): value is Resource {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Resource).attributes === 'object' &&
    (value as Resource).attributes !== null
  );
}

/** The previous state as an event stores it: without the attributes the entity holds too. */
export function previousAsStored(entity: unknown, previous: unknown): unknown {
  if (!isResource(entity) || !isResource(previous)) return previous;
  const current = entity.attributes ?? {};
  const changed: [string, unknown][] = [];
  const unchanged: string[] = [];
  for (const [name, value] of Object.entries(previous.attributes ?? {})) {
    if (Object.hasOwn(current, name) && isDeepStrictEqual(current[name], value))
      unchanged.push(name);
    else changed.push([name, value]);
  }
  if (unchanged.length === 0) return previous;
  return { ...previous, attributes: Object.fromEntries(changed), [UNCHANGED]: unchanged };
}

/** How jsonb orders an object's keys (shorter first, then by bytes): as a stored one reads. */
function jsonbKeyOrder(a: string, b: string): number {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length - right.length || Buffer.compare(left, right);
}

/** The previous state as delivery sends it: whole again, as it was before it was stored. */
export function previousAsSent(entity: unknown, stored: unknown): unknown {
  if (!isResource(stored) || !Array.isArray(stored[UNCHANGED]) || !isResource(entity))
    return stored;
  const { [UNCHANGED]: unchanged, ...previous } = stored;
  const current = entity.attributes ?? {};
  const merged = [
    ...Object.entries(previous.attributes ?? {}),
    ...(unchanged as string[]).map((name): [string, unknown] => [name, current[name]]),
  ];
  merged.sort(([a], [b]) => jsonbKeyOrder(a, b));
  return { ...previous, attributes: Object.fromEntries(merged) };
}
