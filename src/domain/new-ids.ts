import type { EnvQueryable } from '../db/environment-scope.ts';
import type { EnvironmentDatabase } from '../db/schema.ts';
import type { Issues } from './errors.ts';
import { checkIdFormat } from './ids.ts';

type TableWithTextId = {
  [T in keyof EnvironmentDatabase]: EnvironmentDatabase[T] extends { id: string } ? T : never;
}[keyof EnvironmentDatabase];

/** A client-chosen id for a new row of `table`: well formed and not used yet in its environment. */
export async function checkNewId(
  db: EnvQueryable,
  issues: Issues,
  field: string,
  id: string | undefined,
  table: TableWithTextId,
): Promise<void> {
  if (id === undefined || !checkIdFormat(issues, field, id)) return;
  const used = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  if (used) issues.add(field, 'VALIDATION_UNIQUENESS', 'is already taken');
}
