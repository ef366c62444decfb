import fc from 'fast-check';
import { type HostileRequest, hostileText, hostileValue } from './hostile-requests.ts';

/**
 * fast-check arbitraries for hostile requests on records: creates, updates and validations
 * with values of every field type of a seeded schema (blocks nested from none to thousands
 * of levels, structured text as deep), positions and parents, list filters and pages,
 * bulk actions and schedules. Bodies are built as text: the deepest ones are beyond what
 * JSON.stringify can write.
 */

/** What the fuzzed requests address: seeded by the test through the official client. */
export type RecordSchema = {
  /** A sortable, draft-mode model with `title`, `views`, `related`, `sections`, `body`. */
  modelId: string;
  /** A tree model with a `title`. */
  treeModelId: string;
  /** A block model `node` holding itself in `inner`. */
  blockId: string;
  recordIds: string[];
  treeIds: string[];
  /** A stage of the workflow the sortable model follows. */
  stage: string;
};

const json = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** A valid-looking id nothing has. */
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** Levels of nesting: the common ones, the limit's edge, and far past any stack. */
const depth = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 3, arbitrary: fc.constantFrom(62, 63, 64, 65, 66) },
  { weight: 2, arbitrary: fc.integer({ min: 100, max: 4000 }) },
);

/** `levels` new `node` blocks, each in the `inner` of the one above, as JSON text. */
function blockChain(blockId: string, levels: number, innermost = '[]'): string {
  const open = `[{"type":"item","attributes":{"title":"x","inner":`;
  const close = `},"relationships":{"item_type":{"data":{"type":"item_type","id":"${blockId}"}}}}]`;
  return `${open.repeat(levels)}${innermost}${close.repeat(levels)}`;
}

/** A dast document whose lists nest `levels` deep, holding `inline` (a block) at the bottom. */
function nestedDast(levels: number, inline: string | null): string {
  const leaf =
    inline === null ? `{"type":"span","value":"x"}` : `{"type":"inlineBlock","item":${inline}}`;
  const paragraph = `{"type":"paragraph","children":[${leaf}]}`;
  const open = `{"type":"list","style":"bulleted","children":[{"type":"listItem","children":[`;
  const close = ']}]}';
  const content = `${open.repeat(levels)}${paragraph}${close.repeat(levels)}`;
  return `{"schema":"dast","document":{"type":"root","children":[${content}]}}`;
}

function sections(schema: RecordSchema): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: depth.map((levels) => blockChain(schema.blockId, levels)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(depth, fc.constantFrom(...schema.recordIds, UNKNOWN_ID))
        .map(([levels, id]) => blockChain(schema.blockId, levels, json([id]))),
    },
    { weight: 1, arbitrary: hostileValue.map(json) },
  );
}

function body(schema: RecordSchema): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(depth, fc.option(depth, { nil: null }))
        .map(([levels, blocks]) =>
          nestedDast(
            Math.min(levels, 400),
            blocks === null || blocks === 0
              ? null
              : blockChain(schema.blockId, blocks).slice(1, -1),
          ),
        ),
    },
    { weight: 1, arbitrary: hostileValue.map(json) },
  );
}

const hostileNumber = fc.constantFrom(
  0,
  1,
  2,
  -1,
  1.5,
  2 ** 31,
  2 ** 40,
  1_000_000,
  1_000_001,
  '1',
  null,
);

/** Some of the records' attributes, each as JSON text. */
function attributes(schema: RecordSchema, tree: boolean): fc.Arbitrary<string> {
  const pick = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
  const ids = fc.constantFrom(...schema.recordIds, ...schema.treeIds, UNKNOWN_ID, 'x');
  const fields: Record<string, fc.Arbitrary<string | undefined>> = tree
    ? {
        title: pick(fc.oneof(fc.string({ maxLength: 10 }), hostileText).map(json)),
        parent_id: pick(fc.oneof(ids, hostileValue).map(json)),
      }
    : {
        title: pick(fc.oneof(fc.string({ maxLength: 10 }), hostileText).map(json)),
        views: pick(fc.oneof(fc.integer(), hostileNumber, hostileValue).map(json)),
        related: pick(fc.oneof(fc.array(ids, { maxLength: 3 }), hostileValue).map(json)),
        sections: pick(sections(schema)),
        body: pick(body(schema)),
      };
  return fc.record({ ...fields, position: pick(hostileNumber.map(json)) }).map((values) =>
    Object.entries(values)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${json(key)}:${value}`)
      .join(','),
  );
}

function itemDocument(schema: RecordSchema, modelId: string, tree: boolean) {
  return attributes(schema, tree).map(
    (values) =>
      `{"data":{"type":"item","attributes":{${values}},"relationships":{"item_type":{"data":{"type":"item_type","id":"${modelId}"}}}}}`,
  );
}

/** `GET /items` with filters, orders and pages, plausible and not. */
function listQuery(schema: RecordSchema): fc.Arbitrary<string> {
  const piece = (values: string[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
  const big = ['9223372036854775808', '99999999999999999999', '9007199254740991', '-1', '1e3', ''];
  return fc
    .tuple(
      piece([
        '',
        ',',
        ' , ',
        ',,',
        schema.modelId,
        `${schema.modelId},`,
        'nope',
        schema.treeModelId,
      ]),
      piece(['0', '1', ...big]),
      piece(['1', '30', '500', '501', '0', ...big]),
      piece([
        'filter[fields][title][eq]=x',
        'filter[fields][title][matches][pattern]=%5E(a%2B)%2B%24',
        'filter[fields][views][gt]=3',
        'filter[fields][views][gt]=abc',
        'filter[fields][position][lte]=2',
        'filter[fields][sections][any][node][title][eq]=x',
        'filter[fields][OR][0][title][eq]=a&filter[fields][OR][1][views][lt]=2',
        'filter[fields][parent_id][eq]=x',
        'filter[fields][nope][eq]=1',
        'filter[query]=x',
        'filter[only_valid]=maybe',
      ]),
      piece(['order_by=views_ASC', 'order_by=position_DESC', 'order_by=nope_ASC', 'order_by=x']),
      piece([
        'version=published',
        'version=x',
        'nested=true',
        'nested=1',
        'locale=xx',
        'locale=en',
      ]),
    )
    .map(([type, offset, limit, filter, order, extra]) =>
      [
        type === undefined ? undefined : `filter[type]=${encodeURIComponent(type)}`,
        offset === undefined ? undefined : `page[offset]=${offset}`,
        limit === undefined ? undefined : `page[limit]=${limit}`,
        filter,
        order,
        extra,
      ]
        .filter((part) => part !== undefined)
        .join('&'),
    );
}

/** A bulk body naming records: seeded ones (never for destroy), unknown ones, too many. */
function bulkRequest(schema: RecordSchema): fc.Arbitrary<{ path: string; body: string }> {
  const known = fc.constantFrom(...schema.recordIds, ...schema.treeIds);
  const other = fc.oneof(fc.constant(UNKNOWN_ID), hostileText);
  return fc
    .tuple(
      fc.constantFrom('publish', 'unpublish', 'destroy', 'move-to-stage'),
      fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom(200, 201, 250)),
      fc.constantFrom(schema.stage, 'nope', ''),
    )
    .chain(([action, count, stage]) =>
      fc
        .array(action === 'destroy' ? other : fc.oneof(known, other), {
          minLength: count,
          maxLength: count,
        })
        .map((ids) => {
          const type = `item_bulk_${action.replaceAll('-', '_')}_operation`;
          const items = ids.map((id) => ({ type: 'item', id }));
          const attributes = action === 'move-to-stage' ? { attributes: { stage } } : {};
          return {
            path: `/items/bulk/${action}`,
            body: json({
              data: { type, ...attributes, relationships: { items: { data: items } } },
            }),
          };
        }),
    );
}

function scheduleRequest(schema: RecordSchema): fc.Arbitrary<{ path: string; body: string }> {
  const locales = fc.array(fc.constantFrom('en', 'xx', '', 'it'), { maxLength: 3 });
  return fc
    .tuple(fc.constantFrom(...schema.recordIds, UNKNOWN_ID), fc.boolean(), locales, fc.boolean())
    .map(([id, publish, content_in_locales, future]) => {
      const at = future ? '2999-01-01T00:00:00Z' : '2001-01-01T00:00:00Z';
      const attributes = publish
        ? {
            publication_scheduled_at: at,
            selective_publication: { content_in_locales, non_localized_content: false },
          }
        : { unpublishing_scheduled_at: at, content_in_locales };
      const kind = publish ? 'scheduled-publication' : 'scheduled-unpublishing';
      return { path: `/items/${id}/${kind}`, body: json({ data: { type: kind, attributes } }) };
    });
}

/** One hostile request on records. */
export function hostileRecordRequest(schema: RecordSchema): fc.Arbitrary<HostileRequest> {
  const request = (method: string, route: string, path: string, body?: string): HostileRequest => ({
    method,
    path,
    headers: {},
    body,
    route,
    validId: false,
  });
  const existing = fc.constantFrom(...schema.recordIds);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.boolean(), fc.boolean())
        .chain(([tree, validate]) =>
          itemDocument(schema, tree ? schema.treeModelId : schema.modelId, tree).map((document) =>
            request(
              'POST',
              validate ? '/items/validate' : '/items',
              validate ? '/items/validate' : '/items',
              document,
            ),
          ),
        ),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(existing, itemDocument(schema, schema.modelId, false))
        .map(([id, document]) => request('PUT', '/items/{id}', `/items/${id}`, document)),
    },
    {
      weight: 3,
      arbitrary: listQuery(schema).map((query) => request('GET', '/items', `/items?${query}`)),
    },
    {
      weight: 2,
      arbitrary: bulkRequest(schema).map(({ path, body: text }) =>
        request('POST', path, path, text),
      ),
    },
    {
      weight: 1,
      arbitrary: scheduleRequest(schema).map(({ path, body: text }) =>
        request('POST', '/items/{id}/scheduled-…', path, text),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          existing,
          fc.constantFrom(
            '?nested=true',
            '/current-vs-published-state',
            '/versions?page[offset]=9223372036854775808',
            '?version=published&nested=true',
          ),
        )
        .map(([id, suffix]) => request('GET', '/items/{id}…', `/items/${id}${suffix}`)),
    },
  );
}
