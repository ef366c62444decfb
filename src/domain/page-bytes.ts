import { DomainError } from './errors.ts';
import { MAX_PAGE_BYTES } from './limits.ts';

/**
 * A page's size from its rows' sizes, in order: refused with the largest `page[limit]`
 * that fits when the rows together exceed MAX_PAGE_BYTES. A shorter page instead would
 * make the official client's iterator skip records: it moves on by the limit it asked
 * for, not by what a page held. A page of one row is served whatever its size.
 */
export function checkPageBytes(sizes: readonly number[]): number {
  let total = 0;
  let fitting = 0;
  for (const size of sizes) {
    total += size;
    if (total <= MAX_PAGE_BYTES) fitting++;
  }
  if (total <= MAX_PAGE_BYTES || sizes.length <= 1) return total;
  const largest = Math.max(1, fitting);
  throw new DomainError(
    'INVALID_PARAMS',
    `this page holds ${mib(total)} MiB, more than the ${mib(MAX_PAGE_BYTES)} MiB a page may ` +
      `hold: ask for at most ${largest} records (page[limit]=${largest})`,
    { field: 'page[limit]', largest_limit: largest, max_bytes: MAX_PAGE_BYTES, bytes: total },
  );
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** Takes a read's bytes before it loads them: throws when they do not fit now. */
export type AdmitRead = (bytes: number) => void;
