import { type Static, Type } from '@sinclair/typebox';
import type { ReorderEntry } from '../../domain/menu/reorder.ts';
import { ResourceListDocument, ToOne } from '../jsonapi.ts';

/** `?filter[ids]=a,b` on both menu lists. */
export const IdsFilterQuery = Type.Object(
  {
    filter: Type.Optional(Type.Object({ ids: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export function filterIds(query: Static<typeof IdsFilterQuery>): string[] | undefined {
  return query.filter?.ids.split(',').filter((id) => id !== '');
}

/** `{data: [{type, id, attributes: {position}, relationships: {parent}}…]}`; type checked apart. */
export function ReorderDocument(type: string) {
  return ResourceListDocument(
    Type.Object(
      {
        type: Type.String(),
        id: Type.String(),
        attributes: Type.Object({ position: Type.Integer() }, { additionalProperties: false }),
        relationships: Type.Object({ parent: ToOne(type) }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
  );
}

type ReorderBody = Static<ReturnType<typeof ReorderDocument>>;

export function reorderEntries(body: ReorderBody): ReorderEntry[] {
  return body.data.map((entry) => ({
    type: entry.type,
    id: entry.id,
    position: entry.attributes.position,
    parentId: entry.relationships.parent.data?.id ?? null,
  }));
}
