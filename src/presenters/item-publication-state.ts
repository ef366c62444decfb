import type {
  PublicationState,
  PublicationStateView,
} from '../domain/items/publishing/publication-state.ts';
import { presentItemVersion } from './item-version.ts';
import { type Resource, ref } from './jsonapi.ts';
import { presentScheduledAction } from './scheduled-action.ts';

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

/** The comparison, its schedules and published version included. */
export function presentPublicationStateView(view: PublicationStateView) {
  return {
    data: presentPublicationState(view.state),
    included: [
      ...view.schedules.map(presentScheduledAction),
      ...(view.publishedVersion ? [presentItemVersion(view.publishedVersion)] : []),
    ],
  };
}
