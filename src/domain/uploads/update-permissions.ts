import type { ScopedTransaction } from '../../db/environment-scope.ts';
import type { Actor } from '../actor.ts';
import { assertMayOnUpload, type UpdateReach } from './authorization.ts';
import { uploadOwner } from './owner.ts';
import type { Upload } from './upload.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Which metadata an update changes: alt, title and custom data per locale are
 * localized; author, copyright, notes, tags, focal point and poster time are not.
 */
export function updateReach(current: Upload, next: Upload): UpdateReach {
  const before = current.defaultFieldMetadata;
  const after = next.defaultFieldMetadata;
  const locales = new Set([
    ...Object.keys(after.alt),
    ...Object.keys(after.title),
    ...Object.keys(after.custom_data),
  ]);
  const localizedLocales = [...locales].filter(
    (locale) =>
      !same(before.alt[locale] ?? null, after.alt[locale] ?? null) ||
      !same(before.title[locale] ?? null, after.title[locale] ?? null) ||
      !same(before.custom_data[locale] ?? {}, after.custom_data[locale] ?? {}),
  );
  const notLocalized =
    !same(before.focal_point, after.focal_point) ||
    !same(before.poster_time, after.poster_time) ||
    current.author !== next.author ||
    current.copyright !== next.copyright ||
    current.notes !== next.notes ||
    !same(current.tags, next.tags);
  return { localizedLocales, notLocalized };
}

/**
 * Checks each action an update takes against the role's upload permissions: `update`
 * for the metadata it changes (within the entry's localization scope), `replace_asset`
 * for a new file, `edit_creator` for a new creator, `move` out of the old collection and
 * into the new one. Values sent unchanged need nothing.
 */
export async function assertMayUpdate(
  tx: ScopedTransaction,
  actor: Actor,
  current: Upload,
  next: Upload,
): Promise<void> {
  const environmentId = tx.environment.id;
  const owner = await uploadOwner(tx, current);
  const reach = updateReach(current, next);
  if (reach.notLocalized || reach.localizedLocales.length > 0)
    assertMayOnUpload(actor, environmentId, 'update', owner, reach);
  if (next.path !== current.path) assertMayOnUpload(actor, environmentId, 'replace_asset', owner);
  if (next.creatorId !== current.creatorId)
    assertMayOnUpload(actor, environmentId, 'edit_creator', owner);
  if (next.uploadCollectionId !== current.uploadCollectionId) {
    assertMayOnUpload(actor, environmentId, 'move', owner);
    assertMayOnUpload(actor, environmentId, 'move', await uploadOwner(tx, next));
  }
}
