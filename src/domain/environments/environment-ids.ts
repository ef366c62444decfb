import type { Trx } from '../../db/transaction.ts';
import { Issues, uniquenessFailure } from '../errors.ts';
import { findRow } from './environment-rows.ts';

const ENVIRONMENT_ID = /^[a-z0-9][a-z0-9-]*$/;
const MAX_ENVIRONMENT_ID_LENGTH = 64;

/** A new environment id: the CLI reads a clash as INVALID_FIELD on `name`. */
export function checkNewEnvironmentId(id: string): void {
  const issues = new Issues('Environment');
  if (id.length > MAX_ENVIRONMENT_ID_LENGTH)
    issues.add(
      'name',
      'VALIDATION_LENGTH',
      `must be at most ${MAX_ENVIRONMENT_ID_LENGTH} characters`,
    );
  else if (!ENVIRONMENT_ID.test(id))
    issues.add('name', 'VALIDATION_FORMAT', 'must be lowercase letters, digits and dashes');
  issues.throwIfAny();
}

export async function checkIdFree(trx: Trx, id: string): Promise<void> {
  if (await findRow(trx, id)) throw uniquenessFailure('Environment', 'name');
}
