import { Type } from '@sinclair/typebox';
import type { ScheduledActionKind } from '../../db/schema.ts';
import { NoMembers, ResourceDocument } from '../jsonapi.ts';
import { LocalesToWithdraw, SelectivePublication } from './item.ts';

/**
 * A schedule's create document: its due-time attribute (a string) and its optional part
 * of the record (null or absent: the whole record), shaped as publishing or unpublishing
 * with a body takes it. The time's format and future-ness are the domain's to check
 * (domain/items/schedules.ts), which names the attribute it refuses.
 */
export function CreateScheduleBody(
  kind: ScheduledActionKind,
  attribute: string,
  localesAttribute: string,
) {
  const part = kind === 'publish' ? SelectivePublication : LocalesToWithdraw;
  return ResourceDocument({
    attributes: Type.Object(
      {
        [attribute]: Type.String(),
        [localesAttribute]: Type.Optional(Type.Union([Type.Null(), part])),
      },
      { additionalProperties: false },
    ),
    relationships: NoMembers,
    meta: NoMembers,
  });
}
