import type { TSchema } from '@sinclair/typebox';

/**
 * The name a schema is declared under in openapi.json (`#/components/schemas/<name>`).
 * A symbol, not `$id`: Ajv never sees it (it reads string keys only), so naming a piece
 * of a request schema cannot change how requests are validated or what their errors say,
 * and JSON drops it. `Type.Optional` and spreads carry it along.
 */
export const COMPONENT_NAME = Symbol('openapi component name');

/** Declares `schema` once in openapi.json, referred to from every operation holding it. */
export function Component<T extends TSchema>(name: string, schema: T): T {
  return Object.assign(schema, { [COMPONENT_NAME]: name });
}

export function componentNameOf(schema: object): string | undefined {
  return (schema as { [COMPONENT_NAME]?: string })[COMPONENT_NAME];
}

/** `item_type` → `ItemType`: how a resource type's pieces are named. */
export function componentPrefix(type: string): string {
  return type.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) =>
    letter.toUpperCase(),
  );
}
