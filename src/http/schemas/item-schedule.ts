import { Type } from '@sinclair/typebox';
import { NoMembers, ResourceDocument } from '../jsonapi.ts';

/**
 * A schedule's create document: its due-time attribute (a string) and its optional
 * per-locale attribute. The time's format and future-ness, and the per-locale value, are
 * the domain's to check (domain/items/schedules.ts), which names the attribute it refuses.
 */
export function CreateScheduleBody(attribute: string, localesAttribute: string) {
  return ResourceDocument({
    attributes: Type.Object(
      {
        [attribute]: Type.String(),
        [localesAttribute]: Type.Optional(Type.Unknown()),
      },
      { additionalProperties: false },
    ),
    relationships: NoMembers,
    meta: NoMembers,
  });
}
