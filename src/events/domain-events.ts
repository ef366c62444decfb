import type { EnvironmentRow } from '../db/schema.ts';
import type { TokenView } from '../domain/actor.ts';
import type { RecordView } from '../domain/items/record-view.ts';
import type { ModelView } from '../domain/schema/model-state.ts';
import type { Upload } from '../domain/uploads/upload.ts';

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

/**
 * A record changed: as the change left it (as it was, for a delete) and before, its model
 * as the change left it, and its creator. `nested`: the record with its blocks inline,
 * when its model holds blocks (for webhooks with nested_items_in_payload).
 */
export type RecordEvent = {
  entityType: 'item';
  eventType: 'create' | 'update' | 'delete' | 'publish' | 'unpublish';
  model: ModelView;
  creator: TokenView | null;
  record: RecordView;
  previous?: RecordView | null;
  nested?: RecordView;
  nestedPrevious?: RecordView | null;
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
