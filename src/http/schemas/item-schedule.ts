import { Type } from '@sinclair/typebox';
import { NoMembers, ResourceDocument } from '../jsonapi.ts';

// The due time's format and future-ness, and the per-locale attribute's value, are the
// domain's to check (domain/items/schedules.ts): it names the attribute in its error.

export const CreateScheduledPublicationBody = ResourceDocument({
  attributes: Type.Object(
    {
      publication_scheduled_at: Type.String(),
      selective_publication: Type.Optional(Type.Unknown()),
    },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});

export const CreateScheduledUnpublishingBody = ResourceDocument({
  attributes: Type.Object(
    {
      unpublishing_scheduled_at: Type.String(),
      content_in_locales: Type.Optional(Type.Unknown()),
    },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});
