import { type Static, Type } from '@sinclair/typebox';
import type { FieldsetInput } from '../../domain/fieldsets/attributes.ts';
import type { ReorderEntry } from '../../domain/fieldsets/reorder.ts';
import {
  NoMembers,
  NullableString,
  Position,
  ResourceDocument,
  ResourceListDocument,
  ToOne,
} from '../jsonapi.ts';

const optionalAttributes = {
  hint: Type.Optional(NullableString()),
  position: Type.Optional(Position()),
  collapsible: Type.Optional(Type.Boolean()),
  start_collapsed: Type.Optional(Type.Boolean()),
};

export const CreateFieldsetBody = ResourceDocument({
  attributes: Type.Object(
    { title: Type.String(), ...optionalAttributes },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});

export const UpdateFieldsetBody = ResourceDocument({
  attributes: Type.Object(
    { title: Type.Optional(Type.String()), ...optionalAttributes },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});

/** Fields carry their fieldset; fieldsets only a position. Types are checked apart. */
export const ReorderFieldsAndFieldsetsBody = ResourceListDocument(
  Type.Object(
    {
      type: Type.String(),
      id: Type.String(),
      attributes: Type.Object({ position: Position() }, { additionalProperties: false }),
      relationships: Type.Optional(
        Type.Object(
          { fieldset: Type.Optional(ToOne('fieldset')) },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

type CreateBody = Static<typeof CreateFieldsetBody>;
type UpdateBody = Static<typeof UpdateFieldsetBody>;

/** The client omits `attributes` when empty: missing means no change. */
export function fieldsetInput(body: CreateBody | UpdateBody, includeId: boolean): FieldsetInput {
  return {
    id: includeId ? body.data.id : undefined,
    attributes: body.data.attributes ?? {},
  };
}

export function reorderEntries(body: Static<typeof ReorderFieldsAndFieldsetsBody>): ReorderEntry[] {
  return body.data.map((entry) => {
    const fieldset = entry.relationships?.fieldset;
    return {
      type: entry.type,
      id: entry.id,
      position: entry.attributes.position,
      ...(fieldset ? { fieldsetId: fieldset.data?.id ?? null } : {}),
    };
  });
}
