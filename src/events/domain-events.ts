import type { EnvironmentRow } from '../db/schema.ts';
import type { TokenView } from '../domain/actor.ts';
import type { ModelView } from '../domain/fields/model-state.ts';
import type { Upload } from '../domain/uploads/upload.ts';
import type { Resource } from '../presenters/jsonapi.ts';

/**
 * What a change tells webhooks, as domain values: the outbox presents each into the JSON
 * its event row keeps (presenters/event.ts), in the change's transaction and statement.
 */
export type SchemaEvent =
  | ModelEvent
  | RecordEvent
  | EnvironmentEvent
  | MaintenanceEvent
  | UploadEvent;

/** A model created, changed (its fields and fieldsets too) or deleted. */
export type ModelEvent = {
  entityType: 'item_type';
  eventType: 'create' | 'update' | 'delete';
  model: ModelView;
  previous?: ModelView | null;
};

/** A record changed: its model as the change left it, and its creator. */
export type RecordEvent = {
  entityType: 'item';
  eventType: 'create' | 'update' | 'delete' | 'publish' | 'unpublish';
  model: ModelView;
  creator: TokenView | null;
  entity: Resource;
  previousEntity?: Resource | null;
  /** With its blocks inline, when its model holds blocks (nested_items_in_payload). */
  nestedEntity?: Resource;
  nestedPreviousEntity?: Resource | null;
};

export type EnvironmentEvent = {
  entityType: 'environment';
  eventType: 'create' | 'promote' | 'delete';
  environment: EnvironmentRow;
};

export type MaintenanceEvent = {
  entityType: 'maintenance_mode';
  eventType: 'change';
  active: boolean;
};

/** An upload as it is after the change (as it was, for a delete), and before an update. */
export type UploadEvent = {
  entityType: 'upload';
  eventType: 'create' | 'update' | 'delete';
  upload: Upload;
  previous?: Upload;
  /** Where its URL starts. */
  assetsBase: string;
};
