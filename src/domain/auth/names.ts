import type { Queryable } from '../../db/transaction.ts';
import type { Issues } from '../errors.ts';
import { checkRequiredText } from '../text-checks.ts';

/** Is another role or token already using this name, compared case-insensitively? */
export async function nameTaken(
  db: Queryable,
  table: 'roles' | 'access_tokens',
  name: string,
  exceptId: string | null,
): Promise<boolean> {
  let query = db
    .selectFrom(table)
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The rules roles and tokens share for their names: present, bounded, unique. */
export function checkName(issues: Issues, name: string, taken: boolean): void {
  if (checkRequiredText(issues, 'name', name) && taken)
    issues.add('name', 'VALIDATION_UNIQUENESS', 'is already taken');
}
