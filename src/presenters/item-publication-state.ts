import type { LocaleComparison } from '../domain/items/locale-content.ts';
import { type Resource, ref } from './jsonapi.ts';

/** What the current-vs-published comparison says of a record, and what it links to. */
export type PublicationState = LocaleComparison & {
  itemId: string;
  invalidLocales: string[];
  nonLocalizedInvalid: boolean;
  publishedVersionId: string | null;
  scheduledPublicationId: string | null;
  scheduledUnpublishingId: string | null;
};

/** The client's ItemCurrentVsPublishedState. */
export function presentPublicationState(state: PublicationState): Resource {
  const {
    itemId,
    invalidLocales,
    nonLocalizedInvalid,
    publishedVersionId,
    scheduledPublicationId,
    scheduledUnpublishingId,
    ...comparison
  } = state;
  return {
    type: 'item_current_vs_published_state',
    id: itemId,
    attributes: {
      ...comparison,
      current_version_invalid_locales: invalidLocales,
      current_version_non_localized_fields_invalid: nonLocalizedInvalid,
    },
    relationships: {
      scheduled_publication: { data: ref('scheduled_publication', scheduledPublicationId) },
      scheduled_unpublishing: { data: ref('scheduled_unpublishing', scheduledUnpublishingId) },
      published_version: { data: ref('item_version', publishedVersionId) },
    },
  };
}
