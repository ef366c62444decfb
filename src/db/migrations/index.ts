import type { Migration } from 'kysely';
import * as schema from './0001_schema.ts';

/** Every migration, in order. Listed statically so the set is known without a file scan. */
export const migrations: Record<string, Migration> = {
  '0001_schema': schema,
};
