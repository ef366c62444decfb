import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { Issues } from '../errors.ts';
import { normalizedTags } from '../uploads/metadata-input.ts';

export type CreatedTag = Readonly<{ name: string; created: boolean }>;

/**
 * Makes a tag uploads may then carry. Creating one that exists (made before, or carried
 * by an upload) answers it unchanged, so a script run twice does not fail.
 */
export async function createUploadTag(scope: Scope, name: string): Promise<CreatedTag> {
  const [tag] = normalizedTags([name]);
  if (tag === undefined) {
    const issues = new Issues('Upload');
    issues.add('name', 'VALIDATION_REQUIRED', 'must not be blank');
    issues.throwIfAny();
  }
  const normalized = tag as string;
  return inEnvironmentTransaction(scope, async (tx) => {
    const carried = await tx.db
      .selectFrom('uploads')
      .select('id')
      .where(sql<SqlBool>`tags @> ${JSON.stringify([normalized])}::jsonb`)
      .limit(1)
      .executeTakeFirst();
    const inserted = await tx.db
      .insertInto('upload_tags')
      .values({ name: normalized })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    return { name: normalized, created: inserted !== undefined && carried === undefined };
  });
}
