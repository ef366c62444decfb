import type { Migration } from 'kysely';
import * as schema from './0001_schema.ts';
import * as webhooks from './0002_webhooks.ts';
import * as rateLimits from './0003_rate_limits.ts';
import * as environments from './0004_environments.ts';
import * as roleEnvironmentPermissions from './0005_role_environment_permissions.ts';
import * as nestedEventEntities from './0006_nested_event_entities.ts';
import * as cacheVersions from './0007_cache_versions.ts';
import * as enterEnvironment from './0008_enter_environment.ts';
import * as enterEnvironmentSchemaVersion from './0009_enter_environment_schema_version.ts';
import * as recordAnnouncements from './0010_record_announcements.ts';
import * as schemaChangeVersions from './0011_schema_change_versions.ts';
import * as recordsVersions from './0012_records_versions.ts';
import * as webhookLogPruning from './0013_webhook_log_pruning.ts';
import * as uploads from './0014_uploads.ts';
import * as recordUploadIds from './0015_record_upload_ids.ts';
import * as concurrentRecordWrites from './0016_concurrent_record_writes.ts';
import * as recordsVersionInline from './0017_records_version_inline.ts';
import * as entryAssuming from './0018_entry_assuming.ts';
import * as accessVersion from './0019_access_version.ts';
import * as recordStamps from './0020_record_stamps.ts';

/** Every migration, in order. Listed statically so the set is known without a file scan. */
export const migrations: Record<string, Migration> = {
  '0001_schema': schema,
  '0002_webhooks': webhooks,
  '0003_rate_limits': rateLimits,
  '0004_environments': environments,
  '0005_role_environment_permissions': roleEnvironmentPermissions,
  '0006_nested_event_entities': nestedEventEntities,
  '0007_cache_versions': cacheVersions,
  '0008_enter_environment': enterEnvironment,
  '0009_enter_environment_schema_version': enterEnvironmentSchemaVersion,
  '0010_record_announcements': recordAnnouncements,
  '0011_schema_change_versions': schemaChangeVersions,
  '0012_records_versions': recordsVersions,
  '0013_webhook_log_pruning': webhookLogPruning,
  '0014_uploads': uploads,
  '0015_record_upload_ids': recordUploadIds,
  '0016_concurrent_record_writes': concurrentRecordWrites,
  '0017_records_version_inline': recordsVersionInline,
  '0018_entry_assuming': entryAssuming,
  '0019_access_version': accessVersion,
  '0020_record_stamps': recordStamps,
};
