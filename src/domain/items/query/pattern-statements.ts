import { isStatementTimeout, withStatementTimeout } from '../../../db/engine/statement-timeout.ts';
import type { EnvQueryable } from '../../../db/environment-scope.ts';
import { DomainError } from '../../errors.ts';
import { FILTER_PATTERN_TIMEOUT_MS } from '../../limits.ts';

/**
 * Statements running `matches` patterns, under PostgreSQL's statement timeout: patterns are
 * bounded already (filter-pattern.ts), but their cost grows with the records they scan.
 * Used by `GET /items` and by the Content Delivery API's record queries.
 */
export async function boundedPatternRun<T>(
  db: EnvQueryable,
  work: (db: EnvQueryable) => Promise<T>,
): Promise<T> {
  try {
    return await withStatementTimeout(db, FILTER_PATTERN_TIMEOUT_MS, work);
  } catch (error) {
    if (!isStatementTimeout(error)) throw error;
    throw new DomainError(
      'INVALID_FILTER_FIELDS_PARAM',
      `filter[fields]: the query running its matches patterns was stopped after ${FILTER_PATTERN_TIMEOUT_MS / 1000} s; narrow it down (filter[type], filters without patterns) or simplify the patterns`,
    );
  }
}
