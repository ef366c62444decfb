import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import { MAX_POSITION } from '../domain/limits.ts';
import { Component, componentPrefix } from './schemas/component.ts';

/** Schema builders for JSON:API request documents, validated by ajv with unknown keys refused. */

export function Enum<const T extends string>(values: readonly T[]) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values] });
}

export function NullableEnum<const T extends string>(values: readonly T[]) {
  return Type.Unsafe<T | null>({ type: ['string', 'null'], enum: [...values, null] });
}

export function NullableString(options: { maxLength?: number } = {}) {
  return Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });
}

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** `{data: null | {type, id}}`, declared once per type in openapi.json. */
export function ToOne(type: string) {
  const linkage = Type.Object(
    {
      data: Type.Union([
        Type.Null(),
        Type.Object(
          { type: Type.Literal(type), id: Type.String() },
          { additionalProperties: false },
        ),
      ]),
    },
    { additionalProperties: false },
  );
  return Component(`${componentPrefix(type)}ToOneInput`, linkage);
}

/** `{data: [{type, id}…]}`, with at most `maxItems` entries when given. */
export function ToMany(type: string, maxItems?: number) {
  const linkage = Type.Object(
    {
      data: Type.Array(
        Type.Object(
          { type: Type.Literal(type), id: Type.String() },
          { additionalProperties: false },
        ),
        maxItems === undefined ? {} : { maxItems },
      ),
    },
    { additionalProperties: false },
  );
  return Component(`${componentPrefix(type)}ToManyInput`, linkage);
}

/** For resources whose documents carry no relationships or no meta. */
/**
 * A position in a form or a menu: any integer ≥ 0, kept as sent. The bound
 * keeps it, and the shifts it causes, inside the database's integer.
 */
export function Position() {
  return Type.Integer({ minimum: 0, maximum: MAX_POSITION });
}

export const NoMembers = Type.Object({}, { additionalProperties: false });

/**
 * `{data: {type, id?, attributes?, relationships?, meta?}}`. `type` is checked apart
 * (INVALID_TYPE); the client omits `attributes` and `relationships` when empty.
 */
export function ResourceDocument<A extends TObject, R extends TObject, M extends TObject>(parts: {
  attributes: A;
  relationships: R;
  meta: M;
}) {
  return Type.Object(
    {
      data: Type.Object(
        {
          type: Type.String(),
          id: Type.Optional(Type.String()),
          attributes: Type.Optional(parts.attributes),
          relationships: Type.Optional(parts.relationships),
          meta: Type.Optional(parts.meta),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  );
}

/** `{data: [<resource>…]}` for reorder endpoints. */
export function ResourceListDocument<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item) }, { additionalProperties: false });
}

type ToOneMap = Record<string, { data: { id: string } | null } | undefined>;

/** To-one relationship objects → ids (null clears, undefined leaves alone). */
export function relationshipIds<R extends ToOneMap>(
  relationships: R | undefined,
): { [K in keyof R]?: string | null } {
  const result: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(relationships ?? {})) {
    if (value === undefined) continue;
    result[name] = value.data === null ? null : value.data.id;
  }
  return result as { [K in keyof R]?: string | null };
}

export type { Static };
