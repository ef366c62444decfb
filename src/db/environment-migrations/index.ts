import * as schema from './0001_schema.ts';
import * as siteSettings from './0002_site_settings.ts';
import * as items from './0003_items.ts';
import * as pluginsFilters from './0004_plugins_filters.ts';
import * as itemValidity from './0005_item_validity.ts';
import * as itemsAtScale from './0006_items_at_scale.ts';
import * as blocks from './0007_blocks.ts';
import * as scheduledActions from './0008_scheduled_actions.ts';
import * as schemaVersion from './0009_schema_version.ts';
import * as itemStages from './0010_item_stages.ts';
import * as scheduleSelection from './0011_schedule_selection.ts';
import * as recordAnnouncements from './0012_record_announcements.ts';
import * as emptyLists from './0013_empty_lists.ts';
import * as versionParts from './0014_version_parts.ts';
import * as uploads from './0015_uploads.ts';
import * as uploadCollections from './0016_upload_collections.ts';
import * as uploadReferences from './0017_upload_references.ts';
import * as itemCountsSlots from './0018_item_counts_slots.ts';
import * as valueBytes from './0019_value_bytes.ts';
import * as recordStamps from './0020_record_stamps.ts';
import type { EnvironmentMigration } from './types.ts';

/**
 * Every environment migration, in order: the one source of truth for the tables an
 * environment schema holds. A new environment runs them all before its data is
 * copied; at start, each schema runs the ones it has not run yet.
 */
export const environmentMigrations: Record<string, EnvironmentMigration> = {
  '0001_schema': schema,
  '0002_site_settings': siteSettings,
  '0003_items': items,
  '0004_plugins_filters': pluginsFilters,
  '0005_item_validity': itemValidity,
  '0006_items_at_scale': itemsAtScale,
  '0007_blocks': blocks,
  '0008_scheduled_actions': scheduledActions,
  '0009_schema_version': schemaVersion,
  '0010_item_stages': itemStages,
  '0011_schedule_selection': scheduleSelection,
  '0012_record_announcements': recordAnnouncements,
  '0013_empty_lists': emptyLists,
  '0014_version_parts': versionParts,
  '0015_uploads': uploads,
  '0016_upload_collections': uploadCollections,
  '0017_upload_references': uploadReferences,
  '0018_item_counts_slots': itemCountsSlots,
  '0019_value_bytes': valueBytes,
  '0020_record_stamps': recordStamps,
};
