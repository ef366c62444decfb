import type { EnvironmentRow } from '../db/schema.ts';
import { isoTime } from './jsonapi.ts';

/** Environments carry only meta: `{type, id, meta}`. */
export type EnvironmentResource = {
  type: 'environment';
  id: string;
  meta: Record<string, unknown>;
};

export function presentEnvironment(row: EnvironmentRow): EnvironmentResource {
  return {
    type: 'environment',
    id: row.id,
    meta: {
      status: row.status,
      ...(row.status === 'creating'
        ? { fork_completion_percentage: row.fork_completion_percentage }
        : {}),
      read_only_mode: row.read_only_mode,
      created_at: isoTime(row.created_at),
      last_data_change_at: isoTime(row.last_data_change_at),
      primary: row.is_primary,
      forked_from: row.forked_from,
    },
  };
}

/** Maintenance mode is one project-wide switch. */
export function presentMaintenanceMode(active: boolean) {
  return {
    type: 'maintenance_mode',
    id: 'maintenance_mode',
    attributes: { active },
  } as const;
}
