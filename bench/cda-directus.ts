// The Directus 11 side of bench/cda.ts: the same blog (1,000 posts, 10 authors, 20 tags,
// the same cover images, a link to the previous post, the body and its quote as JSON)
// made through Directus's REST API, and the same pages asked of its GraphQL API (/graphql).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { TOKEN } from './directus-server.ts';

async function call(baseUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`directus ${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : (JSON.parse(text) as { data: unknown });
}

const id = {
  field: 'id',
  type: 'integer',
  meta: { hidden: true },
  schema: { is_primary_key: true, has_auto_increment: true },
};
const input = (field: string, type = 'string') => ({ field, type, meta: {}, schema: {} });

/**
 * Collections author, tag, post (with author and previous m2o, cover m2o to
 * directus_files, tags m2m through post_tags).
 */
async function createSchema(baseUrl: string) {
  const post = (method: string, path: string, body: unknown) => call(baseUrl, method, path, body);
  await post('POST', '/collections', {
    collection: 'author',
    meta: {},
    schema: {},
    fields: [id, input('name')],
  });
  await post('POST', '/collections', {
    collection: 'tag',
    meta: {},
    schema: {},
    fields: [id, input('name')],
  });
  await post('POST', '/collections', {
    collection: 'post',
    meta: {},
    schema: {},
    fields: [
      id,
      input('title'),
      input('slug'),
      input('published_on', 'date'),
      input('content', 'json'),
      input('author', 'integer'),
      input('previous', 'integer'),
      {
        field: 'cover',
        type: 'uuid',
        meta: { interface: 'file-image', special: ['file'] },
        schema: {},
      },
    ],
  });
  await post('POST', '/collections', {
    collection: 'post_tags',
    meta: { hidden: true },
    schema: {},
    fields: [id, input('post_id', 'integer'), input('tag_id', 'integer')],
  });
  await post('POST', '/relations', {
    collection: 'post',
    field: 'author',
    related_collection: 'author',
  });
  await post('POST', '/relations', {
    collection: 'post',
    field: 'previous',
    related_collection: 'post',
  });
  await post('POST', '/relations', {
    collection: 'post',
    field: 'cover',
    related_collection: 'directus_files',
    schema: { on_delete: 'SET NULL' },
  });
  await post('POST', '/fields/post', {
    field: 'tags',
    type: 'alias',
    meta: { special: ['m2m'], interface: 'list-m2m' },
  });
  await post('POST', '/relations', {
    collection: 'post_tags',
    field: 'post_id',
    related_collection: 'post',
    meta: { one_field: 'tags', junction_field: 'tag_id' },
    schema: { on_delete: 'SET NULL' },
  });
  await post('POST', '/relations', {
    collection: 'post_tags',
    field: 'tag_id',
    related_collection: 'tag',
    meta: { one_field: null, junction_field: 'post_id' },
    schema: { on_delete: 'SET NULL' },
  });
}

/** Uploads each file through `POST /files` (multipart, the file last); their ids in order. */
async function uploadFiles(baseUrl: string, paths: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const path of paths) {
    const form = new FormData();
    form.append('title', basename(path));
    form.append('file', new Blob([readFileSync(path)], { type: 'image/jpeg' }), basename(path));
    const response = await fetch(`${baseUrl}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: form,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`directus POST /files: ${response.status} ${text}`);
    ids.push((JSON.parse(text) as { data: { id: string } }).data.id);
  }
  return ids;
}

const ids = (created: { data: unknown }) => (created.data as { id: number }[]).map((row) => row.id);

/** The blog, as bench/cda.ts makes it in Fieldhouse, its covers cycling through `coverPaths`. */
export async function buildDirectusBlog(
  baseUrl: string,
  posts: number,
  coverPaths: readonly string[],
): Promise<void> {
  await createSchema(baseUrl);
  const covers = await uploadFiles(baseUrl, coverPaths);
  const create = async (collection: string, rows: unknown[]) =>
    ids((await call(baseUrl, 'POST', `/items/${collection}`, rows)) as { data: unknown });
  const authors = await create(
    'author',
    Array.from({ length: 10 }, (_, i) => ({ name: `Author ${i}` })),
  );
  const tags = await create(
    'tag',
    Array.from({ length: 20 }, (_, i) => ({ name: `Tag ${i}` })),
  );
  let previous: number | null = null;
  for (let i = 0; i < posts; i++) {
    const [made] = await create('post', [
      {
        title: `Post ${i}`,
        slug: `post-${i}`,
        published_on: new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
        author: authors[i % authors.length],
        cover: covers[i % covers.length],
        previous,
        tags: [{ tag_id: tags[i % tags.length] }, { tag_id: tags[(i + 7) % tags.length] }],
        content: { body: `Body of post ${i}`, blocks: [{ type: 'quote', text: `Quote ${i}` }] },
      },
    ]);
    previous = made ?? null;
  }
}

// Directus has no responsiveImage: a front-end builds its <img> URLs itself from the file's
// id (/assets/<id>?width=…) and has no placeholder to ask for, so the list page selects the
// file's own fields a front-end needs for that instead.
export const DIRECTUS_LIST_PAGE = `{ post(limit: 20, sort: ["-published_on"]) {
  id title slug published_on cover { id filename_disk width height title }
  author { name } tags { tag_id { name } } } }`;
export const DIRECTUS_POST_PAGE = `query ($slug: String) { post(filter: {slug: {_eq: $slug}}, limit: 1) {
  title author { name } tags { tag_id { name } } content previous { slug } } }`;

type ListedPost = {
  slug?: string;
  cover?: { id?: string; width?: number | null; height?: number | null } | null;
};

/**
 * Throws unless the list page answered `expected` posts, each with its cover file and
 * that file's dimensions (which Directus reads from the image when it is uploaded).
 */
export function checkDirectusCovers(data: unknown, expected: number): void {
  const posts = (data as { post?: ListedPost[] } | null)?.post ?? [];
  if (posts.length !== expected)
    throw new Error(`directus: the list page answered ${posts.length} posts`);
  for (const post of posts)
    if (!post.cover?.id || !post.cover.width || !post.cover.height)
      throw new Error(`directus: ${post.slug} has no cover with its dimensions`);
}

/** `post { previous { … { title } } }`, `depth` levels of records. */
export function directusDepthQuery(depth: number, first: number): string {
  let selection = 'title';
  for (let level = 1; level < depth; level++) selection = `title previous { ${selection} }`;
  return `{ post(limit: ${first}, sort: ["-published_on"]) { ${selection} } }`;
}

/** Runs a GraphQL query on Directus; its errors throw. */
export async function directusQuery(
  baseUrl: string,
  query: string,
  variables?: Record<string, unknown>,
): Promise<unknown> {
  const result = (await call(baseUrl, 'POST', '/graphql', { query, variables })) as {
    data?: unknown;
    errors?: unknown[];
  };
  if (result.errors) throw new Error(`directus graphql: ${JSON.stringify(result.errors)}`);
  return result.data;
}
