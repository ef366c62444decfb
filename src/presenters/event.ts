import type { SchemaEvent } from '../events/domain-events.ts';
import { presentAccessToken } from './access-token.ts';
import { presentEnvironment, presentMaintenanceMode } from './environment.ts';
import { presentItem } from './item.ts';
import { presentItemType } from './item-type.ts';
import type { Resource } from './jsonapi.ts';
import { presentUpload } from './upload.ts';

/** An event's entities as its row keeps them and webhook payloads carry them. */
export type PresentedEvent = {
  entity: { id: string } & Record<string, unknown>;
  previousEntity: unknown;
  relatedEntities: Resource[];
  nestedEntity?: Resource;
  nestedPreviousEntity?: Resource | null;
};

/** A domain event presented as the CMA presents its entities. */
export function presentEvent(event: SchemaEvent): PresentedEvent {
  switch (event.entityType) {
    case 'item_type':
      return {
        entity: presentItemType(event.model),
        previousEntity: event.previous ? presentItemType(event.previous) : null,
        relatedEntities: [],
      };
    case 'item':
      return {
        entity: presentItem(event.record),
        previousEntity: event.previous ? presentItem(event.previous) : null,
        // As DatoCMS sends them: the record's model, then its creator.
        relatedEntities: [
          presentItemType(event.model),
          ...(event.creator ? [presentAccessToken(event.creator, null, new Date())] : []),
        ],
        ...(event.nested
          ? {
              nestedEntity: presentItem(event.nested),
              nestedPreviousEntity: event.nestedPrevious ? presentItem(event.nestedPrevious) : null,
            }
          : {}),
      };
    case 'environment':
      return {
        entity: presentEnvironment(event.environment),
        previousEntity: null,
        relatedEntities: [],
      };
    case 'maintenance_mode':
      return {
        entity: { ...presentMaintenanceMode(event.active) },
        previousEntity: null,
        relatedEntities: [],
      };
    case 'upload':
      return {
        entity: presentUpload(event.upload, event.assetsBase),
        previousEntity: event.previous ? presentUpload(event.previous, event.assetsBase) : null,
        relatedEntities: [],
      };
  }
}
