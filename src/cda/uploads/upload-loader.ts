import DataLoader from 'dataloader';
import type { Scope } from '../../db/environment-scope.ts';
import { anyText } from '../../db/query/any-text.ts';
import { selectRowsAsJson } from '../../db/query/json-rows.ts';
import { type Upload, uploadFromRow } from '../../domain/uploads/upload.ts';
import type { CacheTagCollector } from '../cache-tags/cache-tags.ts';
import type { ExecutionBudget } from '../limits/execution-budget.ts';
import type { UploadReach } from './upload-reach.ts';

/**
 * Uploads by id for one request: every file, gallery and `seo.image` value resolved in
 * one tick is loaded by one statement. An upload the role may not read is null.
 */
export function uploadLoader(
  scope: Scope,
  reach: UploadReach,
  budget: ExecutionBudget,
  tags: CacheTagCollector | null,
): DataLoader<string, Upload | null> {
  return new DataLoader<string, Upload | null>(
    async (ids) => {
      const readable = await reach();
      budget.spendStatement();
      const rows = await selectRowsAsJson(
        scope.db,
        scope.db.selectFrom('uploads').selectAll().where(anyText('id', ids)).where(readable),
        { dates: ['created_at', 'updated_at'], bigints: ['size', 'seq'] },
      );
      tags?.uploads(rows.map((row) => row.id));
      const byId = new Map(rows.map((row) => [row.id, uploadFromRow(row)]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    { maxBatchSize: 5_000 },
  );
}
