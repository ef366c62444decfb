import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { LOOPBACK } from '../support/delivery-fixtures.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  buildWebhook,
  itemTypeRef,
} from '../support/factories.ts';
import { localFile, solidImage } from '../support/images.ts';
import { useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer({ webhookAllow: LOOPBACK });
const client = server.client();
const receiver = useReceiver();

type Upload = Awaited<ReturnType<Client['uploads']['createFromLocalFile']>>;

/** What a response holds for a file value or gallery entry given only its upload. */
function fullFile(uploadId: string, given: Record<string, unknown> = {}) {
  return {
    upload_id: uploadId,
    alt: null,
    title: null,
    custom_data: {},
    focal_point: null,
    poster_time: null,
    ...given,
  };
}

let photo: Upload; // 400×300 PNG
let square: Upload; // 100×100 JPEG, default alt in en
let notes: Upload; // a text file
before(async () => {
  photo = await client.uploads.createFromLocalFile({
    localPath: localFile('photo.png', await solidImage(400, 300, { r: 200, g: 10, b: 10 })),
  });
  square = await client.uploads.createFromLocalFile({
    localPath: localFile(
      'square.jpg',
      await solidImage(100, 100, { r: 10, g: 200, b: 10 }, 'jpeg'),
    ),
    default_field_metadata: { alt: { en: 'A green square' } },
  });
  notes = await client.uploads.createFromLocalFile({
    localPath: localFile('notes.txt', 'plain words'),
  });
});

/** A model with a file, a gallery and an SEO field, each with the given validators. */
async function mediaModel(
  validators: { file?: object; gallery?: object; seo?: object } = {},
  localized = false,
) {
  const model = await buildModel(client);
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'cover',
    field_type: 'file',
    localized,
    validators: validators.file ?? {},
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'photos',
    field_type: 'gallery',
    localized,
    validators: validators.gallery ?? {},
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'seo',
    field_type: 'seo',
    localized,
    validators: validators.seo ?? {},
  });
  return model;
}

describe('file, gallery and SEO values', () => {
  test('hold uploads; answers fill alt, title, custom data, focal point and poster time', async () => {
    const model = await mediaModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      cover: { upload_id: photo.id, alt: 'Red', focal_point: { x: 0.25, y: 0.75 } },
      photos: [
        { upload_id: square.id },
        { upload_id: photo.id, title: 'Again', custom_data: { credit: 'Ada' } },
      ],
      seo: { title: 'Page', image: photo.id, twitter_card: 'summary_large_image' },
    });
    const expected = {
      cover: fullFile(photo.id, { alt: 'Red', focal_point: { x: 0.25, y: 0.75 } }),
      photos: [
        fullFile(square.id),
        fullFile(photo.id, { title: 'Again', custom_data: { credit: 'Ada' } }),
      ],
      seo: { title: 'Page', image: photo.id, twitter_card: 'summary_large_image' },
    };
    for (const read of [record, await client.items.find(record.id)]) {
      assert.deepEqual(
        { cover: read.cover, photos: read.photos, seo: read.seo },
        expected,
        'create answer and find',
      );
    }
    const [listed] = await client.items.list({ filter: { type: model.id } });
    assert.deepEqual(listed?.cover, expected.cover);

    // An update replaces the value; the version holds what was saved; publishing keeps it.
    const updated = await client.items.update(record.id, { cover: { upload_id: notes.id } });
    assert.deepEqual(updated.cover, fullFile(notes.id));
    assert.deepEqual(updated.photos, expected.photos);
    await client.items.publish(record.id);
    const published = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(published.cover, fullFile(notes.id));
    const versions = await client.itemVersions.list(record.id);
    const first = versions.at(-1);
    assert.deepEqual(first?.cover, expected.cover);

    // Cleared: a file is null, a gallery [].
    const cleared = await client.items.update(record.id, { cover: null, photos: [], seo: null });
    assert.deepEqual([cleared.cover, cleared.photos, cleared.seo], [null, [], null]);
  });

  test('localized: a value per locale, each filled', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    const model = await mediaModel({}, true);
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      cover: { en: { upload_id: photo.id, alt: 'Red' }, it: { upload_id: photo.id, alt: 'Rosso' } },
      photos: { en: [{ upload_id: square.id }], it: [] },
      seo: { en: { image: square.id }, it: null },
    });
    assert.deepEqual(record.cover, {
      en: fullFile(photo.id, { alt: 'Red' }),
      it: fullFile(photo.id, { alt: 'Rosso' }),
    });
    assert.deepEqual(record.photos, { en: [fullFile(square.id)], it: [] });
    assert.deepEqual(record.seo, { en: { image: square.id }, it: null });
  });

  test('an upload id this environment does not have is refused, naming the field and locale; nothing is saved', async () => {
    const model = await mediaModel();
    const before = (await client.items.list({ filter: { type: model.id } })).length;
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        cover: { upload_id: 'AAAAAAAAAAAAAAAAAAAAAA' },
      }),
      'INVALID_FIELD',
      { field: 'cover', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        photos: [{ upload_id: photo.id }, { upload_id: 'BBBBBBBBBBBBBBBBBBBBBB' }],
      }),
      'INVALID_FIELD',
      { field: 'photos', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        seo: { image: 'CCCCCCCCCCCCCCCCCCCCCC' },
      }),
      'INVALID_FIELD',
      { field: 'seo', code: 'VALIDATION_INVALID' },
    );
    assert.equal((await client.items.list({ filter: { type: model.id } })).length, before);
    await client.site.update({ locales: ['en', 'it'] });
    const localized = await mediaModel({}, true);
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(localized.id),
        cover: { en: { upload_id: photo.id }, it: { upload_id: 'DDDDDDDDDDDDDDDDDDDDDD' } },
        photos: { en: [], it: [] },
        seo: { en: null, it: null },
      }),
      'INVALID_FIELD',
      { field: 'cover', locale: 'it', code: 'VALIDATION_INVALID' },
    );
  });
});

describe('upload validators judge the uploads stored metadata', () => {
  type Case = {
    name: string;
    validators: { file?: object; gallery?: object; seo?: object };
    pass: Record<string, unknown>;
    fail: Record<string, unknown>;
    code: string;
    field: string;
  };
  const cases = (): Case[] => [
    {
      name: 'required (file)',
      validators: { file: { required: {} } },
      pass: { cover: { upload_id: notes.id } },
      fail: { cover: null },
      code: 'VALIDATION_REQUIRED',
      field: 'cover',
    },
    {
      name: 'extension: predefined image',
      validators: { file: { extension: { extensions: [], predefined_list: 'image' } } },
      pass: { cover: { upload_id: photo.id } },
      fail: { cover: { upload_id: notes.id } },
      code: 'VALIDATION_EXTENSION',
      field: 'cover',
    },
    {
      name: 'extension: transformable_image',
      validators: { gallery: { extension: { predefined_list: 'transformable_image' } } },
      pass: { photos: [{ upload_id: photo.id }, { upload_id: square.id }] },
      fail: { photos: [{ upload_id: photo.id }, { upload_id: notes.id }] },
      code: 'VALIDATION_EXTENSION',
      field: 'photos',
    },
    {
      name: 'extension: document',
      validators: { file: { extension: { predefined_list: 'document' } } },
      pass: { cover: { upload_id: notes.id } },
      fail: { cover: { upload_id: photo.id } },
      code: 'VALIDATION_EXTENSION',
      field: 'cover',
    },
    {
      name: 'extension: a list, case and dot ignored',
      validators: { file: { extension: { extensions: ['.JPG', 'jpeg'] } } },
      pass: { cover: { upload_id: square.id } },
      fail: { cover: { upload_id: photo.id } },
      code: 'VALIDATION_EXTENSION',
      field: 'cover',
    },
    {
      name: 'file_size',
      validators: {
        file: { file_size: { min_value: 100, min_unit: 'B', max_value: 1, max_unit: 'MB' } },
      },
      pass: { cover: { upload_id: photo.id } },
      fail: { cover: { upload_id: notes.id } },
      code: 'VALIDATION_FILE_SIZE',
      field: 'cover',
    },
    {
      name: 'image_dimensions (a non-image fails)',
      validators: {
        gallery: { image_dimensions: { width_min_value: 200, height_max_value: 300 } },
      },
      pass: { photos: [{ upload_id: photo.id }] },
      fail: { photos: [{ upload_id: square.id }] },
      code: 'VALIDATION_IMAGE_DIMENSIONS',
      field: 'photos',
    },
    {
      name: 'image_aspect_ratio (eq 4:3)',
      validators: { file: { image_aspect_ratio: { eq_ar_numerator: 4, eq_ar_denominator: 3 } } },
      pass: { cover: { upload_id: photo.id } },
      fail: { cover: { upload_id: square.id } },
      code: 'VALIDATION_IMAGE_ASPECT_RATIO',
      field: 'cover',
    },
    {
      name: 'image_aspect_ratio on the SEO image (min 5:4)',
      validators: { seo: { image_aspect_ratio: { min_ar_numerator: 5, min_ar_denominator: 4 } } },
      pass: { seo: { image: photo.id } },
      fail: { seo: { image: square.id } },
      code: 'VALIDATION_IMAGE_ASPECT_RATIO',
      field: 'seo',
    },
    {
      name: "required_alt_title: the value's own alt or the upload's default",
      validators: { gallery: { required_alt_title: { alt: true, title: false } } },
      pass: { photos: [{ upload_id: photo.id, alt: 'Red' }, { upload_id: square.id }] },
      fail: { photos: [{ upload_id: photo.id, alt: '  ' }] },
      code: 'VALIDATION_REQUIRED_ALT_TITLE',
      field: 'photos',
    },
    {
      name: 'size (gallery)',
      validators: { gallery: { size: { min: 2 } } },
      pass: { photos: [{ upload_id: photo.id }, { upload_id: square.id }] },
      fail: { photos: [{ upload_id: photo.id }] },
      code: 'VALIDATION_SIZE',
      field: 'photos',
    },
    {
      name: 'required_seo_fields (image)',
      validators: { seo: { required_seo_fields: { image: true } } },
      pass: { seo: { image: photo.id } },
      fail: { seo: { title: 'No image' } },
      code: 'VALIDATION_REQUIRED_SEO_FIELDS',
      field: 'seo',
    },
    {
      name: 'title_length and file_size on the SEO image',
      validators: {
        seo: { title_length: { max: 10 }, file_size: { max_value: 1, max_unit: 'KB' } },
      },
      pass: { seo: { title: 'Short', image: square.id } },
      fail: { seo: { title: 'Short', image: photo.id } },
      code: 'VALIDATION_FILE_SIZE',
      field: 'seo',
    },
  ];

  test('each passes its passing value and refuses its failing one with its code', async () => {
    await client.site.update({ locales: ['en'] });
    assert.ok(photo.size > 1024, 'the photo is over 1 KB');
    assert.ok(square.size <= 1024, `the square is at most 1 KB (${square.size})`);
    for (const { name, validators, pass, fail, code, field } of cases()) {
      const model = await mediaModel(validators);
      const record = await client.items.create({ item_type: itemTypeRef(model.id), ...pass });
      assert.ok(record.id, name);
      await rejectsWithApiError(
        client.items.create({ item_type: itemTypeRef(model.id), ...fail }),
        'INVALID_FIELD',
        { field, code },
      );
      // An update to the failing value is refused too, and changes nothing.
      await rejectsWithApiError(client.items.update(record.id, fail), 'INVALID_FIELD', {
        field,
        code,
      });
      const kept = await client.items.find(record.id);
      assert.deepEqual(kept[field], (record as Record<string, unknown>)[field], name);
    }
  });
});

describe('uploads in blocks, duplicates, conversions, references, webhooks', () => {
  test('a file field inside a block: checked, read nested, found by references', async () => {
    const block = await buildBlockModel(client);
    await buildField(client, {
      itemTypeId: block.id,
      api_key: 'image',
      field_type: 'file',
      validators: { extension: { predefined_list: 'image' } },
    });
    const model = await buildModel(client, { draft_mode_active: true });
    await buildModularContentField(client, {
      itemTypeId: model.id,
      api_key: 'sections',
      blockIds: [block.id],
    });
    await rejectsWithApiError(
      client.items.create({
        item_type: itemTypeRef(model.id),
        sections: [
          blockInRequest({ itemTypeId: block.id, attributes: { image: { upload_id: notes.id } } }),
        ],
      }),
      'INVALID_FIELD',
    );
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [
        blockInRequest({
          itemTypeId: block.id,
          attributes: { title: 'Hero', image: { upload_id: photo.id, alt: 'Red' } },
        }),
      ],
    });
    const nested = await client.items.find(record.id, { nested: true });
    const [section] = nested.sections as unknown as { attributes: Record<string, unknown> }[];
    assert.deepEqual(section?.attributes.image, fullFile(photo.id, { alt: 'Red' }));

    const current = await client.uploads.references(photo.id);
    assert.ok(
      current.some((item) => item.id === record.id),
      'current',
    );
    const published = await client.uploads.references(photo.id, { version: 'published' });
    assert.ok(!published.some((item) => item.id === record.id), 'not published yet');
    await client.items.publish(record.id);
    const nowPublished = await client.uploads.references(photo.id, {
      version: 'published',
      nested: true,
    });
    const found = nowPublished.find((item) => item.id === record.id);
    assert.ok(found, 'published');
    const [publishedSection] = found.sections as unknown as {
      attributes: Record<string, unknown>;
    }[];
    assert.deepEqual(publishedSection?.attributes.image, fullFile(photo.id, { alt: 'Red' }));

    // The block's upload is replaced: current values no longer name it, published ones do.
    const [blockId] = record.sections as string[];
    await client.items.update(record.id, {
      sections: [blockInRequest({ id: blockId, attributes: { image: { upload_id: square.id } } })],
    });
    const ids = async (version: 'current' | 'published' | 'published-or-current') =>
      (await client.uploads.references(photo.id, { version })).map((item) => item.id);
    assert.ok(!(await ids('current')).includes(record.id));
    assert.ok((await ids('published')).includes(record.id));
    assert.ok((await ids('published-or-current')).includes(record.id));
    assert.ok((await client.uploads.references(square.id)).some((item) => item.id === record.id));
  });

  test('references: every record naming the upload (file, gallery, SEO, any locale), once each; unknown upload 404', async () => {
    const model = await mediaModel();
    const upload = await client.uploads.createFromLocalFile({
      localPath: localFile('ref.png', await solidImage(10, 10, { r: 1, g: 2, b: 3 })),
    });
    const byFile = await client.items.create({
      item_type: itemTypeRef(model.id),
      cover: { upload_id: upload.id },
    });
    const byGallery = await client.items.create({
      item_type: itemTypeRef(model.id),
      photos: [{ upload_id: photo.id }, { upload_id: upload.id }],
    });
    const bySeo = await client.items.create({
      item_type: itemTypeRef(model.id),
      seo: { image: upload.id },
    });
    const byAll = await client.items.create({
      item_type: itemTypeRef(model.id),
      cover: { upload_id: upload.id },
      photos: [{ upload_id: upload.id }],
      seo: { image: upload.id },
    });
    await client.items.create({ item_type: itemTypeRef(model.id), cover: { upload_id: photo.id } });
    const references = await client.uploads.references(upload.id);
    assert.deepEqual(
      references.map((item) => item.id),
      [byFile.id, byGallery.id, bySeo.id, byAll.id],
    );
    assert.equal(references[0]?.type, 'item');
    assert.deepEqual(references[0]?.cover, fullFile(upload.id));
    await rejectsWithApiError(client.uploads.references('EEEEEEEEEEEEEEEEEEEEEE'), 'NOT_FOUND');
  });

  test('duplicate copies the values; file ↔ gallery conversion carries them', async () => {
    const model = await mediaModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      cover: { upload_id: photo.id, alt: 'Red' },
      photos: [{ upload_id: square.id, title: 'Green' }, { upload_id: photo.id }],
    });
    const copy = await client.items.duplicate(record.id);
    assert.deepEqual([copy.cover, copy.photos], [record.cover, record.photos]);

    const fields = await client.fields.list(model.id);
    const cover = fields.find((field) => field.api_key === 'cover');
    const photos = fields.find((field) => field.api_key === 'photos');
    assert.ok(cover && photos);
    await client.fields.update(cover.id, { field_type: 'gallery' });
    await client.fields.update(photos.id, { field_type: 'file' });
    const converted = await client.items.find(record.id);
    assert.deepEqual(converted.cover, [fullFile(photo.id, { alt: 'Red' })]);
    assert.deepEqual(converted.photos, fullFile(square.id, { title: 'Green' }));
  });

  test('webhook payloads carry the values as answers show them', async () => {
    const model = await mediaModel();
    const webhook = await buildWebhook(client, {
      url: `${receiver.url}/uploads-hook`,
      events: [
        {
          entity_type: 'item',
          event_types: ['create'],
          filters: [{ entity_type: 'item_type', entity_ids: [model.id] }],
        },
      ],
      auto_retry: false,
    });
    assert.ok(webhook.id);
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      cover: { upload_id: photo.id },
      seo: { image: square.id },
    });
    const deadline = Date.now() + 60_000;
    let body: string | undefined;
    while (!body) {
      body = receiver.requests.find((request) => request.path === '/uploads-hook')?.body;
      if (Date.now() > deadline) assert.fail('no webhook call');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const payload = JSON.parse(body) as {
      entity: { id: string; attributes: Record<string, unknown> };
    };
    assert.equal(payload.entity.id, record.id);
    assert.deepEqual(payload.entity.attributes.cover, fullFile(photo.id));
    assert.deepEqual(payload.entity.attributes.seo, { image: square.id });
  });
});
