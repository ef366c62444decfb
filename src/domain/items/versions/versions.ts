import type { EnvQueryable, Scope } from '../../../db/environment-scope.ts';
import type { ItemRow, ItemVersionRow } from '../../../db/schema.ts';
import { NotFound } from '../../errors.ts';
import { type AdmitRead, checkPageBytes } from '../../page-bytes.ts';
import { siteLocales } from '../../schema/locales.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { snapshotAsRequest } from '../blocks/block-snapshots.ts';
import { findRow } from '../find-item.ts';
import { snapshotValid } from '../locale-content.ts';
import { fieldsOfModel, type ItemField } from '../model-fields.ts';
import type { RecordView } from '../record-view.ts';
import { updateItem } from '../writes/update-item.ts';
import { findWholeVersion, wholeValueBytes, withWholeValues } from './version-store.ts';

/**
 * A saved version of a record, its values whole (blocks inline), with the record's fields
 * and whether its values pass the schema as it is now.
 */
export type VersionView = {
  version: ItemVersionRow;
  item: Pick<ItemRow, 'current_version_id' | 'published_version_id'>;
  fields: readonly ItemField[];
  isValid: boolean;
};

/**
 * Whether versions' values pass their fields' checks as the schema is now (`meta.is_valid`):
 * versions keep what was saved, so a schema change since can make an old one invalid.
 */
async function versionValidity(db: EnvQueryable, itemTypeId: string, fields: readonly ItemField[]) {
  const [locales, model] = await Promise.all([
    siteLocales(db),
    db
      .selectFrom('item_types')
      .select('all_locales_required')
      .where('id', '=', itemTypeId)
      .executeTakeFirstOrThrow(),
  ]);
  const options = { locales, allLocalesRequired: model.all_locales_required };
  return (version: ItemVersionRow) => snapshotValid(fields, version.item_values, options);
}

/** A record's versions, newest first (every save makes one). */
/**
 * A page of the record's versions, newest first. Each holds a whole record: the page is
 * measured first, and `admit` takes its bytes (checkPageBytes refuses a page too large)
 * before any is read.
 */
export async function listVersions(
  scope: Scope,
  itemId: string,
  page: { offset: number; limit: number },
  admit?: AdmitRead,
): Promise<{ versions: VersionView[]; total: number }> {
  const item = await findRow(scope.db, itemId);
  if (!item) throw new NotFound('Item', itemId);
  const [idRows, count, fields] = await Promise.all([
    scope.db
      .selectFrom('item_versions')
      .select('id')
      .where('item_id', '=', itemId)
      .orderBy('seq', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    scope.db
      .selectFrom('item_versions')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('item_id', '=', itemId)
      .executeTakeFirstOrThrow(),
    fieldsOfModel(scope.db, item.item_type_id),
  ]);
  const rows = await measuredVersions(
    scope,
    itemId,
    idRows.map((row) => row.id),
    admit,
  );
  const isValid = await versionValidity(scope.db, item.item_type_id, fields);
  return {
    versions: rows.map((row) => ({ version: row, item, fields, isValid: isValid(row) })),
    total: Number(count.total),
  };
}

/**
 * The versions, in the order given, with their values whole, once their bytes (the values
 * as presented, parts included) are admitted.
 */
async function measuredVersions(
  scope: Scope,
  itemId: string,
  ids: readonly string[],
  admit?: AdmitRead,
) {
  if (ids.length === 0) return [];
  const sizeOf = await wholeValueBytes(scope.db, itemId, ids);
  admit?.(checkPageBytes(ids.map((id) => sizeOf.get(id) ?? 0)));
  const rows = await scope.db
    .selectFrom('item_versions')
    .selectAll()
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return withWholeValues(
    scope.db,
    itemId,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

async function findVersionRow(scope: Scope, versionId: string) {
  const version = await findWholeVersion(scope.db, versionId);
  const item = version ? await findRow(scope.db, version.item_id) : undefined;
  if (!version || !item) throw new NotFound('Item version', versionId);
  return { version, item };
}

export async function findVersion(scope: Scope, versionId: string): Promise<VersionView> {
  const { version, item } = await findVersionRow(scope, versionId);
  const fields = await fieldsOfModel(scope.db, item.item_type_id);
  const isValid = await versionValidity(scope.db, item.item_type_id, fields);
  return { version, item, fields, isValid: isValid(version) };
}

/**
 * Restores an old version: its values are saved as a new version, validated against the
 * schema as it is now, like any update; `gate` judges the caller's permission on the record
 * inside the update's transaction. Answers the record and the new version.
 */
export async function restoreVersion(
  scope: Scope,
  editorId: string | null,
  versionId: string,
  gate?: RecordGate,
): Promise<[RecordView, VersionView]> {
  const { version, item } = await findVersionRow(scope, versionId);
  const fields = await fieldsOfModel(scope.db, item.item_type_id);
  const attributes = await snapshotAsRequest(scope.db, item.id, fields, version.item_values);
  const record = await updateItem(scope, editorId, item.id, { attributes, meta: {} }, { gate });
  return [record, await findVersion(scope, record.row.current_version_id)];
}
