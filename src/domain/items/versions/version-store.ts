import { sql } from 'kysely';
import type { EnvQueryable } from '../../../db/environment-scope.ts';
import type { UnreadWrite } from '../../../db/query/carried-writes.ts';
import type { ItemVersionRow } from '../../../db/schema.ts';
import { decodeValues, type EncodedValues, encodeValues, type ReadPart } from './version-values.ts';

// Where versions meet their compact storage (version-values.ts): the columns a save
// writes, the parts it adds, and versions read back whole.

/** A version's value columns as an insert writes them, and the parts to store with it. */
export type StoredVersionValues = {
  item_values: string;
  value_refs: string;
  part_hashes: string[];
  parts: EncodedValues['parts'];
};

/** The snapshot a save keeps (blocks inline), in the columns a version stores it in. */
export function storedVersionValues(snapshot: Record<string, unknown>): StoredVersionValues {
  const { skeleton, refs, parts } = encodeValues(snapshot);
  return {
    item_values: JSON.stringify(skeleton),
    value_refs: JSON.stringify(refs),
    part_hashes: [...parts.keys()],
    parts,
  };
}

/**
 * Stores the parts the record does not have yet (one statement, one JSON parameter, of
 * the same text whatever the parts): an unchanged value is the part already there.
 * Null when the values have no part.
 */
export function insertParts(
  db: EnvQueryable,
  itemId: string,
  stored: StoredVersionValues,
): UnreadWrite | null {
  if (stored.parts.size === 0) return null;
  const rows = [...stored.parts.values()].map(
    (part) =>
      `{"hash":${JSON.stringify(part.hash)},"value":${part.valueJson},"refs":${part.refsJson}}`,
  );
  return db
    .insertInto('item_version_parts')
    .columns(['item_id', 'hash', 'value', 'refs'])
    .expression(
      sql`SELECT ${itemId}::text, p.hash, p.value, p.refs
        FROM jsonb_to_recordset(${`[${rows.join(',')}]`}::jsonb)
          AS p(hash text, value jsonb, refs jsonb)`,
    )
    .onConflict((conflict) => conflict.doNothing());
}

/**
 * A record's versions with their values whole again (blocks inline, as saved): one read
 * for every part they reach.
 */
export async function withWholeValues(
  db: EnvQueryable,
  itemId: string,
  versions: readonly ItemVersionRow[],
): Promise<ItemVersionRow[]> {
  const hashes = [...new Set(versions.flatMap((version) => version.part_hashes))];
  if (hashes.length === 0) return [...versions];
  const rows = await db
    .selectFrom('item_version_parts')
    .select(['hash', 'value', 'refs'])
    .where('item_id', '=', itemId)
    .where('hash', '=', sql<string>`any(${hashes}::text[])`)
    .execute();
  const parts = new Map<string, ReadPart>(
    rows.map((row) => [row.hash, { value: row.value, refs: row.refs }]),
  );
  return versions.map((version) =>
    version.part_hashes.length === 0
      ? version
      : { ...version, item_values: decodeValues(version.item_values, version.value_refs, parts) },
  );
}

/** One version with its values whole, or undefined. */
export async function findWholeVersion(
  db: EnvQueryable,
  versionId: string,
): Promise<ItemVersionRow | undefined> {
  const version = await db
    .selectFrom('item_versions')
    .selectAll()
    .where('id', '=', versionId)
    .executeTakeFirst();
  return version && (await withWholeValues(db, version.item_id, [version]))[0];
}

/**
 * The size of each version's values as read whole (JSON bytes of the skeleton and of each
 * part it reaches, counted once however many places name it), for page limits.
 */
export async function wholeValueBytes(
  db: EnvQueryable,
  itemId: string,
  versionIds: readonly string[],
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('item_versions as v')
    .select('v.id')
    .select((eb) => {
      const parts = eb
        .selectFrom('item_version_parts as p')
        .select(sql<string>`sum(octet_length(p.value::text))`.as('bytes'))
        .whereRef('p.item_id', '=', 'v.item_id')
        .where(sql<boolean>`p.hash = any(v.part_hashes)`);
      return sql<string>`octet_length(v.item_values::text) + coalesce((${parts}), 0)`.as('bytes');
    })
    .where('v.item_id', '=', itemId)
    .where('v.id', 'in', versionIds)
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.bytes)]));
}
