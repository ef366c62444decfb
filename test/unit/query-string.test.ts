import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQueryString } from '../../src/http/query-string.ts';

/** The query as the official client writes it: URLSearchParams of its flattened pairs. */
const query = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();

test('an object in an array starts anew when the key path given is already in the one being filled (Rack)', () => {
  assert.deepEqual(
    parseQueryString(
      query([
        ['filter[OR][][title][eq]', 'a'],
        ['filter[OR][][title][eq]', 'b'],
      ]),
    ),
    { filter: { OR: [{ title: { eq: 'a' } }, { title: { eq: 'b' } }] } },
  );
  // Other key paths are added to the element being filled.
  assert.deepEqual(
    parseQueryString(
      query([
        ['filter[OR][][title][eq]', 'a'],
        ['filter[OR][][views][gt]', '3'],
        ['filter[OR][][title][eq]', 'c'],
      ]),
    ),
    { filter: { OR: [{ title: { eq: 'a' }, views: { gt: '3' } }, { title: { eq: 'c' } }] } },
  );
  // A key whose deeper path was given counts as given.
  assert.deepEqual(
    parseQueryString(
      query([
        ['f[][title][eq]', 'a'],
        ['f[][title]', 'b'],
      ]),
    ).f,
    [{ title: { eq: 'a' } }, { title: 'b' }],
  );
});

test('arrays in arrays are indexed per element; a path holding an array never counts as given', () => {
  assert.deepEqual(
    parseQueryString(
      query([
        ['f[OR][][AND][][a][eq]', '1'],
        ['f[OR][][AND][][a][eq]', '2'],
        ['f[OR][][b][eq]', '3'],
        ['f[OR][][b][eq]', '4'],
        ['f[OR][][AND][][a][eq]', '5'],
      ]),
    ),
    {
      f: {
        OR: [
          { AND: [{ a: { eq: '1' } }, { a: { eq: '2' } }], b: { eq: '3' } },
          { b: { eq: '4' }, AND: [{ a: { eq: '5' } }] },
        ],
      },
    },
  );
  assert.deepEqual(
    parseQueryString(
      query([
        ['f[][title][in][]', 'a'],
        ['f[][title][in][]', 'b'],
      ]),
    ),
    { f: [{ title: { in: ['a', 'b'] } }] },
  );
});

test('everything else reads as before', () => {
  assert.deepEqual(parseQueryString('page%5Blimit%5D=5&filter%5Bids%5D=a%2Cb&x=1+2&y[]=1&y[]=2'), {
    page: { limit: '5' },
    filter: { ids: 'a,b' },
    x: '1 2',
    y: ['1', '2'],
  });
  assert.deepEqual(parseQueryString('f%5BOR%5D%5B0%5D%5Bt%5D=a&f%5BOR%5D%5B1%5D%5Bt%5D=b'), {
    f: { OR: [{ t: 'a' }, { t: 'b' }] },
  });
  // A malformed escape is kept as it is, beside an indexed array.
  assert.deepEqual(parseQueryString('a=%E0%A4%A&b[][c]=1'), { a: '%E0%A4%A', b: [{ c: '1' }] });
});
