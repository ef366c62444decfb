import type { Selectable } from 'kysely';
import type { EnvironmentTable } from '../db/schema.ts';
import { isoTime } from './jsonapi.ts';

/** Environments carry only meta: `{type, id, meta}`. */
export type EnvironmentResource = {
  type: 'environment';
  id: string;
  meta: Record<string, unknown>;
};

export function presentEnvironment(row: Selectable<EnvironmentTable>): EnvironmentResource {
  return {
    type: 'environment',
    id: row.id,
    meta: {
      status: 'ready',
      read_only_mode: false,
      created_at: isoTime(row.created_at),
      last_data_change_at: isoTime(row.last_data_change_at),
      primary: row.is_primary,
      // Forking is out of scope: every environment is an original.
      forked_from: null,
    },
  };
}
