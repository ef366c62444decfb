import type { Scope } from '../../../db/environment-scope.ts';
import { NotFound } from '../../errors.ts';
import { currentSnapshots } from '../blocks/block-snapshots.ts';
import {
  compareContent,
  invalidParts,
  type LocaleComparison,
  snapshotValid,
} from '../locale-content.ts';
import { recordAndContext } from '../record-context.ts';
import { findWholeVersion } from '../versions/version-store.ts';
import type { VersionView } from '../versions/versions.ts';
import type { ScheduledAction } from './schedules.ts';

/** What the current-vs-published comparison says of a record, and what it links to. */
export type PublicationState = LocaleComparison & {
  itemId: string;
  invalidLocales: string[];
  nonLocalizedInvalid: boolean;
  publishedVersionId: string | null;
  scheduledPublicationId: string | null;
  scheduledUnpublishingId: string | null;
};

/** The comparison, with the record's schedules and its published version. */
export type PublicationStateView = {
  state: PublicationState;
  schedules: ScheduledAction[];
  publishedVersion: VersionView | undefined;
};

/**
 * How the record's current values differ from its published ones, locale by locale, and
 * which parts of the current values are invalid (what the publish dropdown needs). The
 * record's schedules and its published version are included.
 */
export async function publicationState(scope: Scope, id: string): Promise<PublicationStateView> {
  const found = await recordAndContext(scope, id);
  if (!found) throw new NotFound('Item', id);
  const {
    row,
    context: { model, fields, locales },
  } = found;
  const [published, schedules] = await Promise.all([
    row.published_version_id === null
      ? undefined
      : findWholeVersion(scope.db, row.published_version_id),
    // At most one of each kind: the ones the record's meta shows.
    scope.db.selectFrom('scheduled_actions').selectAll().where('item_id', '=', id).execute(),
  ]);
  // Published values hold their blocks inline: the current ones are compared the same way.
  const { snapshots } = await currentSnapshots(scope.db, [{ id, values: row.item_values, fields }]);
  const options = { locales, allLocalesRequired: model.all_locales_required };
  const invalid = invalidParts(fields, row.item_values, options);
  const scheduleOf = (kind: 'publish' | 'unpublish') =>
    schedules.find((schedule) => schedule.action === kind);
  const state: PublicationState = {
    itemId: id,
    ...compareContent(fields, snapshots[0] ?? row.item_values, row.published_values, locales),
    invalidLocales: invalid.locales,
    nonLocalizedInvalid: invalid.nonLocalized,
    publishedVersionId: row.published_version_id,
    scheduledPublicationId: scheduleOf('publish')?.seq ?? null,
    scheduledUnpublishingId: scheduleOf('unpublish')?.seq ?? null,
  };
  const publishedVersion = published && {
    version: published,
    item: row,
    fields,
    isValid: snapshotValid(fields, published.item_values, options),
  };
  return { state, schedules, publishedVersion };
}
