// Benchmark: record writes whose values name uploads against the same writes without.
// Two models of four fields each: `plain` (strings) and `media` (a string, a file, a
// 3-image gallery and an SEO value with an image, under upload validators), each record
// created and then updated through the official client on loopback, the two models
// interleaved so both see the same machine load. Prints p50 per write, the media / plain
// ratio and the SQL statements each write ran (counted at the pg client).
// Usage: FIELDHOUSE_TEST_DB=embedded|postgres npx tsx bench/record-uploads.ts [--records 300]
//
// 2026-11-27, 2 cores shared with six other sessions, --records 200, p50 in ms (plain →
// media, ratio; statements per write):
//   embedded:   create 45.8 → 55.9 (1.22×; 3 → 4), update 55.3 → 66.2 (1.20×; 4 → 5)
//   PostgreSQL: create 50.7 → 53.6 (1.06×; 4 → 5), update 35.8 → 36.2 (1.01×; 5 → 6)
// The one more statement is the read of the named uploads' metadata (existence and
// validators); without it (measured with the read faked) embedded was 1.12× / 1.11×, the
// rest being the larger values. Embedded figures moved by ±0.1× between runs.
import { parseArgs } from 'node:util';
import type { Client } from '@datocms/cma-client-node';
import sharp from 'sharp';
import { localFile } from '../test/support/images.ts';
import { startTestServer } from '../test/support/server.ts';
import { median, samples, timed } from './statements.ts';
import { printTable } from './support.ts';

const { values: args } = parseArgs({ options: { records: { type: 'string', default: '300' } } });
const count = Number(args.records);

type FieldBody = Parameters<Client['fields']['create']>[1];

async function model(client: Client, apiKey: string, fields: FieldBody[]) {
  const created = await client.itemTypes.create({ name: apiKey, api_key: apiKey });
  for (const field of fields) await client.fields.create(created.id, field);
  return created;
}

async function setUp(client: Client) {
  const uploads = [];
  for (const [i, width] of [800, 640, 1024, 1200].entries()) {
    const bytes = await sharp({
      create: { width, height: 600, channels: 3, background: { r: 40 * i, g: 90, b: 160 } },
    })
      .jpeg()
      .toBuffer();
    uploads.push(
      await client.uploads.createFromLocalFile({ localPath: localFile(`bench-${i}.jpg`, bytes) }),
    );
  }
  const plain = await model(client, 'plain', [
    { label: 'Title', api_key: 'title', field_type: 'string', validators: { required: {} } },
    { label: 'Subtitle', api_key: 'subtitle', field_type: 'string' },
    { label: 'Caption', api_key: 'caption', field_type: 'string' },
    { label: 'Note', api_key: 'note', field_type: 'string' },
  ]);
  const media = await model(client, 'media', [
    { label: 'Title', api_key: 'title', field_type: 'string', validators: { required: {} } },
    {
      label: 'Cover',
      api_key: 'cover',
      field_type: 'file',
      validators: {
        required: {},
        extension: { predefined_list: 'image' },
        required_alt_title: { alt: true },
      },
    },
    {
      label: 'Photos',
      api_key: 'photos',
      field_type: 'gallery',
      validators: { size: { max: 10 }, image_dimensions: { width_min_value: 300 } },
    },
    {
      label: 'SEO',
      api_key: 'seo',
      field_type: 'seo',
      validators: { file_size: { max_value: 5, max_unit: 'MB' } },
    },
  ]);
  const [a, b, c, d] = uploads.map((upload) => upload.id) as [string, string, string, string];
  return {
    plain: {
      model: plain,
      create: (i: number) => ({
        title: `Plain ${i}`,
        subtitle: `Subtitle ${i}`,
        caption: 'A caption',
        note: 'A note',
      }),
      update: (i: number) => ({ subtitle: `Changed ${i}`, caption: 'Another caption' }),
    },
    media: {
      model: media,
      create: (i: number) => ({
        title: `Media ${i}`,
        cover: { upload_id: a, alt: `Cover ${i}` },
        photos: [{ upload_id: b }, { upload_id: c, title: 'Second' }, { upload_id: d }],
        seo: { title: `Media ${i}`, image: a },
      }),
      update: (i: number) => ({
        cover: { upload_id: b, alt: `Changed ${i}` },
        photos: [{ upload_id: c }, { upload_id: d }, { upload_id: a }],
      }),
    },
  };
}

const server = await startTestServer();
try {
  const client = server.client();
  const kinds = await setUp(client);
  const measured = {
    plain: { create: samples(), update: samples() },
    media: { create: samples(), update: samples() },
  };
  const ids = { plain: [] as string[], media: [] as string[] };
  // Warm-up: statements planned and caches filled for both models.
  for (let i = 0; i < 20; i++)
    for (const kind of ['plain', 'media'] as const)
      await client.items.create({ item_type: kinds[kind].model, ...kinds[kind].create(i) });
  for (let i = 0; i < count; i++)
    for (const kind of ['plain', 'media'] as const) {
      const record = await timed(measured[kind].create, () =>
        client.items.create({ item_type: kinds[kind].model, ...kinds[kind].create(i) }),
      );
      ids[kind].push(record.id);
    }
  for (let i = 0; i < count; i++)
    for (const kind of ['plain', 'media'] as const)
      await timed(measured[kind].update, () =>
        client.items.update(ids[kind][i] ?? '', kinds[kind].update(i)),
      );
  const rows = (['create', 'update'] as const).map((write) => {
    const plain = median(measured.plain[write].ms);
    const media = median(measured.media[write].ms);
    return {
      write: `items.${write}`,
      n: String(count),
      'plain p50 ms': plain,
      'media p50 ms': media,
      'media / plain': media / plain,
      'plain statements': String(median(measured.plain[write].statements)),
      'media statements': String(median(measured.media[write].statements)),
    };
  });
  console.log(`engine=${process.env.FIELDHOUSE_TEST_DB ?? 'embedded'} records=${count}`);
  printTable(rows);
} finally {
  await server.close();
}
