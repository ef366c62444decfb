import { sql } from 'kysely';
import { ITEM_TIMESTAMP_COLUMNS, type ItemStatus } from '../../db/schema.ts';

/**
 * A record as the delivery API reads it: its meta columns and the values of the version
 * it serves (published, or current with drafts), keyed by field id.
 */
export type DeliveryRow = {
  id: string;
  item_type_id: string;
  status: ItemStatus;
  values: Record<string, unknown>;
  valid: boolean;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  first_published_at: Date | null;
  publication_scheduled_at: Date | null;
  unpublishing_scheduled_at: Date | null;
  parent_id: string | null;
  position: number | null;
};

export const META_COLUMNS = [
  'id',
  'item_type_id',
  'status',
  ...ITEM_TIMESTAMP_COLUMNS,
  'parent_id',
  'position',
] as const;

/** The values and validity of the version served: only these bytes are read. */
export function versionColumns(drafts: boolean) {
  return drafts
    ? [
        sql<Record<string, unknown>>`item_values`.as('values'),
        sql<boolean>`current_valid`.as('valid'),
      ]
    : [
        sql<Record<string, unknown>>`published_values`.as('values'),
        sql<boolean>`published_valid`.as('valid'),
      ];
}
