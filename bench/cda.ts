// Benchmark: the Content Delivery API (GraphQL) on a blog of 1,000 posts (authors, tags,
// cover images, structured text with blocks) made through the CMA client:
//   - p50 of a list page query (20 posts with author, cover responsiveImage, tags) and of
//     a post page query (by slug: structured text value, blocks, links), through HTTP;
//     the covers are 20 distinct 800×600 JPEGs uploaded to each server, and the bench
//     fails if any listed post's cover comes back without its image (and, here, its
//     base64 placeholder);
//   - the first query after a schema change (a new field) against a warm one;
//   - building the schema of 1,000 models × 30 fields (in process): time and heap per
//     cached schema;
//   - the same blog and pages on Directus 11's GraphQL API (bench/cda-directus.ts), on the
//     same engine (PostgreSQL; SQLite, its file database, against the embedded one):
//     p50 and ops/s side by side;
//   - on PostgreSQL, the SQL statements per query against its depth (1..4 levels of
//     linked records) and `first`, counted by a proxy in front of the database
//     (bench/statement-counter.ts);
//   - with `--scale <seconds>` (PostgreSQL), 16 concurrent clients on the list page against
//     one API process, then two (bench/cda-scale.ts): queries/s and CPU per query.
// Usage: npx tsx bench/cda.ts [--engine embedded|postgres] [--posts 1000] [--samples 200]
//          [--servers fieldhouse,directus] [--scale 20]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { executeQuery } from '@datocms/cda-client';
import type { Client } from '@datocms/cma-client-node';
import { buildDeliverySchema } from '../src/cda/schema/build-schema.ts';
import type { SchemaSnapshot } from '../src/cda/schema/snapshot.ts';
import type { ItemTypeRow } from '../src/db/schema.ts';
import type { FilterField } from '../src/domain/items/model-fields.ts';
import {
  buildDirectusBlog,
  checkDirectusCovers,
  DIRECTUS_LIST_PAGE,
  DIRECTUS_POST_PAGE,
  directusDepthQuery,
  directusQuery,
} from './cda-directus.ts';
import { CLIENTS, type ScaleRun, scaleOut } from './cda-scale.ts';
import { makeCoverImages } from './cover-images.ts';
import { installDirectus, startDirectus } from './directus-server.ts';
import { startFieldhouse } from './fieldhouse-schema-api.ts';
import { type StatementCounter, startStatementCounter } from './statement-counter.ts';
import { benchDatabase, cpuMs, percentile, printTable } from './support.ts';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'embedded' },
    posts: { type: 'string', default: '1000' },
    samples: { type: 'string', default: '200' },
    servers: { type: 'string', default: 'fieldhouse,directus' },
    scale: { type: 'string', default: '0' },
  },
});
const SCALE_SECONDS = Number(values.scale);
const POSTS = Number(values.posts);
const SAMPLES = Number(values.samples);
const ADMIN = 'bench-admin-token-cda-000001';
const COVERS = 20;
/** Posts the list page answers (its `first: 20`, fewer on a smaller blog). */
const LISTED = Math.min(20, POSTS);

const LIST_PAGE = `{ allBlogPosts(first: 20, orderBy: publishedOn_DESC) {
  id title slug publishedOn
  coverImage { responsiveImage(imgixParams: {fit: crop, w: 600, h: 400}) { src srcSet width height alt base64 } }
  author { name } tags { name } } }`;
const POST_PAGE = `query ($slug: String) { blogPost(filter: {slug: {eq: $slug}}) {
  title author { name } tags { name }
  content { value blocks { ... on QuoteBlockRecord { id text } } links { ... on BlogPostRecord { slug } } } } }`;

const itemType = (id: string) => ({ type: 'item_type' as const, id });

type ListedPost = {
  slug?: string;
  coverImage?: { responsiveImage?: { src?: string; base64?: string | null } | null } | null;
};

/**
 * Throws unless the list page answered its 20 posts (or all, on a smaller blog), each
 * with a cover whose responsiveImage has a URL and a base64 placeholder: a blog whose
 * covers went missing would otherwise be measured, faster, without anyone noticing.
 */
function checkCovers(data: unknown): void {
  const posts = (data as { allBlogPosts?: ListedPost[] } | null)?.allBlogPosts ?? [];
  if (posts.length !== LISTED) throw new Error(`the list page answered ${posts.length} posts`);
  for (const post of posts) {
    const image = post.coverImage?.responsiveImage;
    if (!image?.src || !image.base64?.startsWith('data:image/'))
      throw new Error(`${post.slug}: no cover responsiveImage with a base64 placeholder`);
  }
}

/** The covers uploaded through the CMA client, one upload each, in order. */
async function uploadCovers(client: Client, paths: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const localPath of paths)
    ids.push((await client.uploads.createFromLocalFile({ localPath })).id);
  return ids;
}

async function buildBlog(client: Client, coverPaths: readonly string[]) {
  const covers = await uploadCovers(client, coverPaths);
  const author = await client.itemTypes.create({ name: 'Author', api_key: 'author' });
  await client.fields.create(author.id, { label: 'Name', api_key: 'name', field_type: 'string' });
  const tag = await client.itemTypes.create({ name: 'Tag', api_key: 'tag' });
  await client.fields.create(tag.id, { label: 'Name', api_key: 'name', field_type: 'string' });
  const quote = await client.itemTypes.create({
    name: 'Quote block',
    api_key: 'quote_block',
    modular_block: true,
  });
  await client.fields.create(quote.id, { label: 'Text', api_key: 'text', field_type: 'string' });
  const post = await client.itemTypes.create({ name: 'Blog post', api_key: 'blog_post' });
  const field = (body: Record<string, unknown>) =>
    client.fields.create(post.id, body as Parameters<Client['fields']['create']>[1]);
  await field({ label: 'Title', api_key: 'title', field_type: 'string' });
  await field({ label: 'Slug', api_key: 'slug', field_type: 'string' });
  await field({ label: 'Published on', api_key: 'published_on', field_type: 'date' });
  await field({ label: 'Cover', api_key: 'cover_image', field_type: 'file' });
  await field({
    label: 'Author',
    api_key: 'author',
    field_type: 'link',
    validators: { item_item_type: { item_types: [author.id] } },
  });
  await field({
    label: 'Tags',
    api_key: 'tags',
    field_type: 'links',
    validators: { items_item_type: { item_types: [tag.id] } },
  });
  await field({
    label: 'Content',
    api_key: 'content',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [quote.id] },
      structured_text_links: { item_types: [post.id] },
    },
  });
  const authors = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      client.items.create({ item_type: itemType(author.id), name: `Author ${i}` }),
    ),
  );
  const tags = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      client.items.create({ item_type: itemType(tag.id), name: `Tag ${i}` }),
    ),
  );
  const ids: string[] = [];
  for (let start = 0; start < POSTS; start += 8) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(8, POSTS - start) }, (_, k) => {
        const i = start + k;
        return client.items.create({
          item_type: itemType(post.id),
          title: `Post ${i}`,
          slug: `post-${i}`,
          published_on: new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
          cover_image: { upload_id: covers[i % covers.length] },
          author: authors[i % authors.length]?.id,
          tags: [tags[i % tags.length]?.id, tags[(i + 7) % tags.length]?.id],
          content: {
            schema: 'dast',
            document: {
              type: 'root',
              children: [
                { type: 'paragraph', children: [{ type: 'span', value: `Body of post ${i}` }] },
                {
                  type: 'block',
                  item: {
                    type: 'item',
                    attributes: { text: `Quote ${i}` },
                    relationships: { item_type: { data: itemType(quote.id) } },
                  },
                },
                ...(ids.length > 0
                  ? [
                      {
                        type: 'paragraph',
                        children: [
                          {
                            type: 'itemLink',
                            item: ids[ids.length - 1],
                            children: [{ type: 'span', value: 'previous' }],
                          },
                        ],
                      },
                    ]
                  : []),
              ],
            },
          },
        } as never);
      }),
    );
    ids.push(...batch.map((record) => record.id));
  }
  await client.items
    .bulkPublish({ items: [...authors, ...tags].map((r) => ({ type: 'item', id: r.id })) } as never)
    .catch(async () => {
      for (const record of [...authors, ...tags]) await client.items.publish(record.id);
    });
  for (let start = 0; start < ids.length; start += 8)
    await Promise.all(ids.slice(start, start + 8).map((id) => client.items.publish(id)));
  return { postModel: post.id };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

type Latency = { p50: number; opsPerSecond: number; cpuMsPerQuery: number };

/**
 * p50 of SAMPLES runs one after another (after 20 to warm up), their ops/s, and the CPU
 * the server process `pid` spent per query meanwhile (on a busy machine wall time waits
 * for a core; CPU time does not).
 */
async function latency(run: () => Promise<unknown>, pid: number): Promise<Latency> {
  for (let i = 0; i < 20; i++) await run();
  const samples: number[] = [];
  const cpuBefore = cpuMs(pid);
  for (let i = 0; i < SAMPLES; i++) samples.push(await timed(run));
  const cpuMsPerQuery = (cpuMs(pid) - cpuBefore) / SAMPLES;
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  return {
    cpuMsPerQuery,
    p50: percentile(
      samples.sort((a, b) => a - b),
      50,
    ),
    opsPerSecond: (SAMPLES * 1000) / total,
  };
}

const p50 = async (run: () => Promise<unknown>, pid: number) => (await latency(run, pid)).p50;

/** `allBlogPosts { content { links { … on BlogPostRecord { … title } } } }`, `depth` levels of records. */
function depthQuery(depth: number, first: number): string {
  let selection = 'title';
  for (let level = 1; level < depth; level++)
    selection = `title content { links { ... on BlogPostRecord { ${selection} } } }`;
  return `{ allBlogPosts(first: ${first}, orderBy: publishedOn_DESC) { ${selection} } }`;
}

/** Statements one query runs: the fewest of three runs (the server's own polls fall in some). */
async function statementsOf(counter: StatementCounter, run: () => Promise<unknown>) {
  let fewest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const before = counter.count();
    await run();
    fewest = Math.min(fewest, counter.count() - before);
  }
  return fewest;
}

const DEPTHS = [1, 2, 3, 4];
const FIRSTS = [20, 100];

/** Statements per query of each depth and `first`, keyed `depth/first`; none without a counter. */
async function statementsByDepth(
  counter: StatementCounter | null,
  run: (depth: number, first: number) => () => Promise<unknown>,
): Promise<Map<string, number>> {
  const statements = new Map<string, number>();
  if (!counter) return statements;
  for (const depth of DEPTHS)
    for (const first of FIRSTS)
      statements.set(`${depth}/${first}`, await statementsOf(counter, run(depth, first)));
  return statements;
}

type Side = {
  list: Latency;
  page: Latency;
  statements: Map<string, number>;
};

/** A synthetic environment of `models` models × `fields` fields of mixed types. */
function syntheticSnapshot(models: number, fields: number): SchemaSnapshot {
  const types = [
    'string',
    'text',
    'integer',
    'boolean',
    'date',
    'float',
    'slug',
    'json',
    'file',
    'seo',
  ];
  const modelRows = Array.from({ length: models }, (_, m) => ({
    id: `m${m}`,
    api_key: `model_${m}`,
    name: `Model ${m}`,
    singleton: false,
    modular_block: false,
    sortable: false,
    tree: false,
    singleton_item_id: null,
    inverse_relationships_enabled: false,
    title_field_id: null,
  })) as unknown as ItemTypeRow[];
  const fieldsByModel = new Map<string, FilterField[]>(
    modelRows.map((model, m) => [
      model.id,
      Array.from({ length: fields }, (_, f) => ({
        id: `m${m}f${f}`,
        item_type_id: model.id,
        api_key: `field_${f}`,
        label: `Field ${f}`,
        field_type: f === 0 ? 'link' : (types[f % types.length] as string),
        localized: f % 5 === 0,
        validators: f === 0 ? { item_item_type: { item_types: [`m${(m + 1) % models}`] } } : {},
        default_value: null,
        deep_filtering_enabled: false,
      })) as unknown as FilterField[],
    ]),
  );
  return {
    models: modelRows,
    blockModels: [],
    fieldsByModel,
    locales: ['en', 'it'],
    site: { noIndex: false, favicon: null, globalSeo: null },
  };
}

function schemaBuild() {
  const snapshot = syntheticSnapshot(1000, 30);
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const schema = buildDeliverySchema(snapshot, () => true, { strict: false });
  // Types are made lazily: reading the type map builds every field, as the first query's validation would.
  schema.getTypeMap();
  for (const type of Object.values(schema.getTypeMap()))
    if ('getFields' in type) (type as { getFields(): unknown }).getFields();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  global.gc?.();
  const mb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  return { ms, mb, keep: schema };
}

/** Fieldhouse's side: the blog, its pages, the schema change, the statements by depth. */
async function fieldhouseSide(engine: 'embedded' | 'postgres', coverPaths: readonly string[]) {
  const database = await benchDatabase(engine);
  // The scale-out run measures throughput: no proxy in the way of either process.
  const counter =
    database.engine === 'postgres' && SCALE_SECONDS === 0
      ? await startStatementCounter(database.url)
      : null;
  const fieldhouse = await startFieldhouse(
    counter && database.engine === 'postgres' ? { ...database, url: counter.url } : database,
    ADMIN,
  );
  try {
    const client = fieldhouse.client;
    const { postModel } = await buildBlog(client, coverPaths);
    const editor = (await client.roles.list()).find((role) => role.name === 'Admin');
    const token = await client.accessTokens.create({
      name: `CDA ${randomUUID()}`,
      can_access_cda: true,
      can_access_cda_preview: false,
      can_access_cma: false,
      role: { type: 'role', id: editor?.id ?? '' },
    });
    const endpoint = `${(client.config as { baseUrl: string }).baseUrl}/graphql`;
    const run = (query: string, variables?: Record<string, unknown>) => () =>
      executeQuery(query, {
        token: token.token ?? '',
        graphqlEndpointUrl: endpoint,
        variables,
        autoRetry: false,
      });
    checkCovers(await run(LIST_PAGE)());
    const list = await latency(run(LIST_PAGE), fieldhouse.pid);
    const page = await latency(
      run(POST_PAGE, { slug: `post-${Math.floor(POSTS / 2)}` }),
      fieldhouse.pid,
    );
    const statements = await statementsByDepth(counter, (depth, first) =>
      run(depthQuery(depth, first)),
    );
    await client.fields.create(postModel, {
      label: 'Extra',
      api_key: 'extra',
      field_type: 'string',
    });
    const afterChange = await timed(run(LIST_PAGE));
    const warm = await p50(run(LIST_PAGE), fieldhouse.pid);
    const scale: [ScaleRun, ScaleRun] | null =
      SCALE_SECONDS > 0 && database.engine === 'postgres'
        ? await scaleOut(fieldhouse, database, ADMIN, token.token ?? '', LIST_PAGE, SCALE_SECONDS)
        : null;
    return { list, page, statements, afterChange, warm, scale } satisfies Side &
      Record<string, unknown>;
  } finally {
    await fieldhouse.stop();
    await counter?.close();
    await database.drop();
  }
}

/** Directus's side, on PostgreSQL (through the counter) or SQLite. */
async function directusSide(
  engine: 'embedded' | 'postgres',
  coverPaths: readonly string[],
): Promise<Side> {
  installDirectus();
  const database = engine === 'postgres' ? await benchDatabase('postgres') : null;
  const counter =
    database?.engine === 'postgres' ? await startStatementCounter(database.url) : null;
  const scratch = mkdtempSync(join(tmpdir(), 'cda-directus-'));
  const directus = await startDirectus(
    counter
      ? { DB_CLIENT: 'pg', DB_CONNECTION_STRING: counter.url }
      : { DB_CLIENT: 'sqlite3', DB_FILENAME: join(scratch, 'directus.db') },
  );
  try {
    await buildDirectusBlog(directus.baseUrl, POSTS, coverPaths);
    const run = (query: string, variables?: Record<string, unknown>) => () =>
      directusQuery(directus.baseUrl, query, variables);
    const pid = directus.child.pid ?? 0;
    checkDirectusCovers(await run(DIRECTUS_LIST_PAGE)(), LISTED);
    const list = await latency(run(DIRECTUS_LIST_PAGE), pid);
    const page = await latency(
      run(DIRECTUS_POST_PAGE, { slug: `post-${Math.floor(POSTS / 2)}` }),
      pid,
    );
    const statements = await statementsByDepth(counter, (depth, first) =>
      run(directusDepthQuery(depth, first)),
    );
    return { list, page, statements };
  } finally {
    await directus.stop();
    await counter?.close();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Each server's side on the same cover images, made for the run and removed after it. */
async function measureSides(engine: 'embedded' | 'postgres', servers: readonly string[]) {
  const covers = await makeCoverImages(COVERS);
  try {
    // Directus first: the shorter set-up, so a failing install shows at once.
    const peer = servers.includes('directus') ? await directusSide(engine, covers.paths) : null;
    return { peer, own: await fieldhouseSide(engine, covers.paths) };
  } finally {
    covers.remove();
  }
}

async function main() {
  const build = schemaBuild();
  const engine = values.engine === 'postgres' ? 'postgres' : 'embedded';
  const servers = (values.servers ?? '').split(',');
  const { peer, own } = await measureSides(engine, servers);
  const peerName = engine === 'postgres' ? 'Directus 11 (PostgreSQL)' : 'Directus 11 (SQLite)';
  const ratio = (a: number, b: number | undefined) =>
    b === undefined ? '' : `${(a / b).toFixed(2)}×`;
  printTable([
    {
      measure: `list page p50 (${engine}, ${POSTS} posts)`,
      value: `${own.list.p50.toFixed(2)} ms`,
    },
    { measure: 'post page p50', value: `${own.page.p50.toFixed(2)} ms` },
    {
      measure: 'first list query after a schema change',
      value: `${own.afterChange.toFixed(2)} ms`,
    },
    { measure: 'warm list query p50', value: `${own.warm.toFixed(2)} ms` },
    { measure: 'first after change / warm', value: `${(own.afterChange / own.warm).toFixed(2)}×` },
    { measure: 'schema build, 1,000 models × 30 fields', value: `${build.ms.toFixed(0)} ms` },
    { measure: 'heap per cached schema', value: `${build.mb.toFixed(1)} MB` },
  ]);
  if (peer) {
    process.stdout.write(`\nFieldhouse (${engine}) against ${peerName}, one client, same data:\n`);
    printTable(
      (['list', 'page'] as const).map((name) => ({
        query: name === 'list' ? 'list page' : 'post page',
        'fieldhouse p50 ms': own[name].p50,
        'directus p50 ms': peer[name].p50,
        'p50 fieldhouse ÷ directus': ratio(own[name].p50, peer[name].p50),
        'fieldhouse ops/s': own[name].opsPerSecond,
        'directus ops/s': peer[name].opsPerSecond,
        'ops/s fieldhouse ÷ directus': ratio(own[name].opsPerSecond, peer[name].opsPerSecond),
        'fieldhouse CPU ms/query': own[name].cpuMsPerQuery,
        'directus CPU ms/query': peer[name].cpuMsPerQuery,
        'CPU fieldhouse ÷ directus': ratio(own[name].cpuMsPerQuery, peer[name].cpuMsPerQuery),
      })),
    );
  }
  if (own.scale) {
    const [one, two] = own.scale;
    process.stdout.write(`\n${CLIENTS} concurrent clients, list page, PostgreSQL:\n`);
    printTable(
      own.scale.map((run) => ({
        'API processes': String(run.processes),
        queries: String(run.queries),
        'queries/s': run.queriesPerSecond,
        'API CPU ms per query': run.cpuMsPerQuery,
      })),
    );
    process.stdout.write(
      `2 processes ÷ 1: ${(two.queriesPerSecond / one.queriesPerSecond).toFixed(2)}× the queries/s, ${(two.cpuMsPerQuery / one.cpuMsPerQuery).toFixed(2)}× the CPU per query\n`,
    );
  }
  if (own.statements.size > 0) {
    process.stdout.write('\nSQL statements per query, by depth (levels of records) and first:\n');
    printTable(
      DEPTHS.flatMap((depth) =>
        FIRSTS.map((first) => ({
          depth: String(depth),
          first: String(first),
          fieldhouse: String(own.statements.get(`${depth}/${first}`) ?? ''),
          directus: String(peer?.statements.get(`${depth}/${first}`) ?? ''),
        })),
      ),
    );
  }
}

await main();
