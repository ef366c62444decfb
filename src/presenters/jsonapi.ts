/** JSON:API building blocks shared by every presenter. */

export type ResourceIdentifier = { type: string; id: string };

export type Resource = {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: ResourceIdentifier | ResourceIdentifier[] | null }>;
  meta?: Record<string, unknown>;
};

export function ref(type: string, id: string | null): ResourceIdentifier | null {
  return id === null ? null : { type, id };
}

export function refs(type: string, ids: string[]): ResourceIdentifier[] {
  return ids.map((id) => ({ type, id }));
}

export function isoTime(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
