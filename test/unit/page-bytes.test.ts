import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainError } from '../../src/domain/errors.ts';
import { MAX_PAGE_BYTES } from '../../src/domain/limits.ts';
import { checkPageBytes } from '../../src/domain/page-bytes.ts';

const MIB = 1024 * 1024;

test('a page within the byte cap is measured, one over it refused with the largest limit that fits', () => {
  assert.equal(checkPageBytes([]), 0);
  assert.equal(checkPageBytes([MIB, 2 * MIB]), 3 * MIB);
  const pieces = Array.from({ length: 100 }, () => MAX_PAGE_BYTES / 32);
  assert.throws(
    () => checkPageBytes(pieces),
    (error) =>
      error instanceof DomainError &&
      error.code === 'INVALID_PARAMS' &&
      error.details.largest_limit === 32 &&
      error.details.field === 'page[limit]',
  );
});

test('a page of one record is served whatever its size; a larger page of such records fits one', () => {
  assert.equal(checkPageBytes([MAX_PAGE_BYTES * 2]), MAX_PAGE_BYTES * 2);
  assert.throws(
    () => checkPageBytes([MAX_PAGE_BYTES * 2, 10]),
    (error) => error instanceof DomainError && error.details.largest_limit === 1,
  );
});
