import fc from 'fast-check';

/**
 * fast-check arbitraries for hostile requests to one route: bad ids, bad query strings,
 * odd headers and bodies of every wrong shape, with attribute values that are wrong for
 * their schema, too big, or text no database can hold.
 */

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};

/** One registered route as the served OpenAPI document describes it. */
export type Route = {
  method: string;
  path: string;
  /** The request body's schema, if the route takes one. */
  body: JsonSchema | null;
};

/** A request ready to send: `path` is already percent-encoded, `body` goes out as is. */
export type HostileRequest = {
  method: string;
  path: string;
  headers: Record<string, string | null>;
  body: string | Buffer | undefined;
  /** The route's path pattern, as the OpenAPI document names it. */
  route: string;
  /** Whether the id in the path names a seeded resource. */
  validId: boolean;
};

// Numbers JSON can carry but JavaScript cannot hold exactly: sent as raw text.
const RAW_NUMBERS = ['1e999', '-1e999', '123456789012345678901234567890', '-0', '1E-400'];
const RAW_MARK = '__fuzz_raw_number__';

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\ufeff',
    '\u202e',
    '🙂',
    'é'.normalize('NFD'),
    'a'.repeat(300),
    'b'.repeat(20_000),
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '{{#each}}',
    '../../etc/passwd',
    '%00',
    'null',
    '__proto__',
  ),
  fc
    .tuple(fc.string({ maxLength: 5 }), fc.constantFrom('\u0000', '\ud83d', '\udca9'))
    .map(([text, bad]) => text + bad),
);

const rawNumber = fc.constantFrom(...RAW_NUMBERS).map((raw) => `${RAW_MARK}${raw}`);

/** Nested as deep as a body can be before JSON.parse itself gives up. */
function deeplyNested(depth: number, wrap: (inner: unknown) => unknown): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = wrap(value);
  return value;
}

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(
    deeplyNested(2000, (inner) => [inner]),
    deeplyNested(2000, (inner) => ({ a: inner })),
  ),
  rawNumber,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 1, 1e308, [], {}, [[[]]], [null]),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileText, { maxLength: 5 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 4 }),
);

/** A value that fits the schema's type, so requests get past validation into the domain. */
function plausibleValue(schema: JsonSchema | undefined, key = ''): fc.Arbitrary<unknown> {
  if (!schema) return hostileValue;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const options: fc.Arbitrary<unknown>[] = types.map((type) => {
    switch (type) {
      case 'string':
        return key === 'api_key'
          ? fc.stringMatching(/^[a-z][a-z0-9_]{0,12}[a-z0-9]$/)
          : fc.oneof(fc.string({ maxLength: 20 }), hostileText);
      case 'integer':
        return fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1), rawNumber);
      case 'number':
        return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), rawNumber);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(plausibleValue(schema.items), { maxLength: 4 });
      case 'object':
        return schema.properties
          ? objectFrom(schema)
          : fc.dictionary(hostileText, hostileValue, { maxKeys: 4 });
      default:
        return hostileValue;
    }
  });
  return fc.oneof(...options);
}

/**
 * Some of the schema's keys, each plausible or hostile, sometimes with an unknown key;
 * or, `wellFormed`, every required key and only plausible values, so that requests get
 * past the schema into the domain's own rules.
 */
function objectFrom(schema: JsonSchema | undefined, wellFormed = false): fc.Arbitrary<unknown> {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const keys = Object.keys(properties);
  if (keys.length === 0) return fc.dictionary(hostileText, hostileValue, { maxKeys: 2 });
  const entries = keys.map((key) => {
    const value = wellFormed
      ? plausibleValue(properties[key], key)
      : fc.oneof(
          { weight: 3, arbitrary: plausibleValue(properties[key], key) },
          { weight: 2, arbitrary: hostileValue },
        );
    return wellFormed && required.has(key) ? value : fc.option(value, { nil: undefined, freq: 2 });
  });
  const extra = wellFormed
    ? fc.constant(undefined)
    : fc.option(fc.tuple(hostileText, hostileValue), { nil: undefined, freq: 5 });
  return fc.tuple(fc.tuple(...entries), extra).map(([values, unknown]) => {
    const object: Record<string, unknown> = {};
    keys.forEach((key, index) => {
      if (values[index] !== undefined) object[key] = values[index];
    });
    if (unknown) object[unknown[0]] = unknown[1];
    return object;
  });
}

/** Hostile path ids, already percent-encoded (they go into the path raw). */
const hostileId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '..',
    '%2E%2E%2F%2E%2E',
    '%00',
    'a%00b',
    '%zz',
    '%',
    '%ED%A0%80',
    '%C0%AF',
    '%FF',
    'null',
    '0',
    '-1',
    '1e999',
    '99999999999999999999999999',
    '__proto__',
    'constructor',
    '%20',
    '%E2%80%AE',
    '%F0%9F%98%80',
    "'%20OR%201=1--",
    '*',
    'main',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeLoosely),
  fc.integer({ min: 90, max: 300 }).map((length) => 'x'.repeat(length)),
);

/** encodeURIComponent, except that a lone surrogate is sent as its (invalid) UTF-8 bytes. */
function encodeLoosely(text: string): string {
  return [...text]
    .map((char) => {
      try {
        return encodeURIComponent(char);
      } catch {
        const code = char.charCodeAt(0);
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join('');
      }
    })
    .join('');
}

const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'filter[ids]=a%00b',
      'filter[ids]=%ED%B0%80',
      'filter[ids][]=1&filter[ids][]=2',
      'filter[ids][a][b]=1',
      'filter=x',
      'include=item_types.fields.item_type.fields',
      'include=%00',
      `include=${'a,'.repeat(500)}`,
      'page[limit]=-1',
      'page[offset]=1e999',
      'a[b][c][d][e][f][g][h]=1',
      `x=${'a'.repeat(17_000)}`,
      '__proto__[x]=1',
      'constructor[prototype][x]=1',
      '%zz=%zz',
      '&&&==&',
      'x[99999]=1',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(hostileText, hostileText), { maxLength: 3 })
      .map((pairs) =>
        pairs
          .map(
            ([key, value]) =>
              `${encodeLoosely(key.slice(0, 50))}=${encodeLoosely(value.slice(0, 200))}`,
          )
          .join('&'),
      ),
  },
);

const oddHeaders: fc.Arbitrary<Record<string, string | null>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Record<string, string | null>>(
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'application/vnd.api+json' },
      { 'content-type': '' },
      { 'content-type': 'multipart/form-data; boundary=x' },
      { 'content-type': null },
      { accept: '*/*' },
      { accept: 'text/html' },
      { accept: null },
      { 'x-api-version': '2' },
      { 'x-api-version': '' },
      { 'x-api-version': null },
      { 'x-environment': 'main' },
      { 'x-environment': 'nope' },
      { 'x-environment': 'x'.repeat(300) },
      { 'x-environment': '%00' },
      { 'x-environment': '\u00ff\u00fe' },
      { authorization: 'Bearer wrong' },
      { authorization: 'Basic YTpi' },
      { authorization: 'Bearer' },
      { authorization: null },
      { 'x-http-method-override': 'DELETE' },
      { 'x-forwarded-for': '1.1.1.1, ::1' },
      { 'if-none-match': '*' },
      { 'accept-encoding': 'gzip;q=x' },
    ),
  },
);

/** Bodies no route accepts: broken JSON, bytes that are not UTF-8, wrong top-level shapes. */
const junkBody: fc.Arbitrary<string | Buffer> = fc.constantFrom<string | Buffer>(
  '',
  '   ',
  '{',
  'null',
  '[]',
  '"data"',
  '1e999',
  'true',
  '{"data":null}',
  '{"data":[]}',
  '{"data":"x"}',
  '{"data":{"type":1}}',
  '{"data":{"type":"x","attributes":[]}}',
  '{"data":{"type":"x","relationships":{"a":{"data":"b"}}}}',
  '{"data":{"type":"x","attributes":{"a":1,"a":2}}}',
  '{"__proto__":{"polluted":true},"data":{}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"data":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
  Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  '{"data":{"type":"x","attributes":{"name":"\\ud800"}}}',
  '{"data":{"type":"x","attributes":{"name":"\\u0000"}}}',
);

/** The resource type a route's documents carry, from its collection's name. */
function resourceTypeOf(path: string): string {
  const segments = path.split('/').filter((part) => part !== '' && !part.startsWith('{'));
  const collection =
    segments.find((part) => part === 'fields' || part === 'fieldsets') ?? segments[0] ?? 'x';
  return collection.replace(/-/g, '_').replace(/s$/, '');
}

function documentFor(route: Route, ids: string[]): fc.Arbitrary<unknown> {
  const data = route.body?.properties?.data;
  const resource = data?.type === 'array' ? data.items : data;
  const type = fc.oneof(
    { weight: 4, arbitrary: fc.constant(resourceTypeOf(route.path)) },
    { weight: 1, arbitrary: hostileValue },
  );
  const id = fc.option(fc.oneof(fc.constantFrom(...(ids.length > 0 ? ids : ['x'])), hostileText), {
    nil: undefined,
  });
  const attributesSchema = resource?.properties?.attributes;
  const attributes = fc.option(
    fc.oneof(objectFrom(attributesSchema), objectFrom(attributesSchema, true)),
    { nil: undefined, freq: 6 },
  );
  const relationships = fc.option(
    relationshipsFrom(resource?.properties?.relationships?.properties ?? {}, ids),
    { nil: undefined, freq: 3 },
  );
  const one = fc
    .record({ type, id, attributes, relationships })
    .map((record) =>
      Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)),
    );
  return data?.type === 'array'
    ? fc.array(one, { maxLength: 4 }).map((items) => ({ data: items }))
    : one.map((item) => ({ data: item }));
}

function relationshipsFrom(
  properties: Record<string, JsonSchema>,
  ids: string[],
): fc.Arbitrary<unknown> {
  const linkage = fc.record({
    type: fc.oneof(fc.constantFrom(...Object.keys(properties), 'item_type'), hostileText),
    id: fc.oneof(fc.constantFrom(...(ids.length > 0 ? ids : ['x'])), hostileText, rawNumber),
  });
  const value = fc.oneof(
    fc.record({ data: linkage }),
    fc.record({ data: fc.array(linkage, { maxLength: 3 }) }),
    fc.constant({ data: null }),
    hostileValue,
  );
  const keys = Object.keys(properties);
  return keys.length === 0
    ? fc.dictionary(hostileText, value, { maxKeys: 2 })
    : fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
}

function serialize(document: unknown): string {
  return JSON.stringify(document).replace(
    new RegExp(`"${RAW_MARK}([^"]*)"`, 'g'),
    (_match, raw: string) => raw,
  );
}

/**
 * One hostile request to `route`. `ids` are seeded resources' ids: a path id is one of
 * them only where the route reads or edits (`mayUseValidId`), so destructive routes
 * never remove the fixture the rest of the run needs.
 */
export function hostileRequest(
  route: Route,
  ids: string[],
  mayUseValidId: boolean,
): fc.Arbitrary<HostileRequest> {
  const pathId =
    mayUseValidId && ids.length > 0
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...ids).map((id) => ({ id, valid: true })) },
          { weight: 2, arbitrary: hostileId.map((id) => ({ id, valid: false })) },
        )
      : hostileId.map((id) => ({ id, valid: false }));
  const body: fc.Arbitrary<string | Buffer | undefined> = fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: junkBody },
    { weight: route.body ? 6 : 1, arbitrary: documentFor(route, ids).map(serialize) },
  );
  return fc
    .record({ pathId, query: hostileQuery, headers: oddHeaders, body })
    .map(({ pathId: { id, valid }, query, headers, body }) => ({
      method: route.method,
      path: route.path.replaceAll('{id}', id) + (query === '' ? '' : `?${query}`),
      headers,
      body: route.method === 'GET' ? undefined : body,
      route: route.path,
      validId: valid && route.path.includes('{id}'),
    }));
}
