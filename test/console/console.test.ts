import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  assertAccessible,
  assertFitsWidth,
  launchChromium,
  screenshot,
} from '../support/browser.ts';
import { localFile, solidImage } from '../support/images.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

// The console driven in Debian's Chromium against a fresh server, through each area in
// the order an editor meets them. Each step builds on the one before (one page, one
// project), so the steps run in order.

const server = useTestServer({ webhookAllow: ['127.0.0.0/8'] });
let browser: Browser;
let page: Page;
let receiver: Receiver;
let recordUrl = '';
let chapter = { modelId: '', recordId: '' };

before(async () => {
  await server.ready();
  receiver = await startReceiver();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  // What the page reports goes to the test's output: a failing step shows why.
  page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
  page.on('response', (response) => {
    if (response.status() >= 400) {
      const request = response.request();
      process.stderr.write(`${response.status()} ${request.method()} ${response.url()}\n`);
      if (response.status() === 422) {
        response
          .text()
          .then((body) => process.stderr.write(`  ${request.postData()}\n  ${body}\n`));
      }
    }
  });
  page.on('dialog', (dialog) => dialog.accept());
});

after(async () => {
  await browser?.close();
  await receiver?.close();
});

async function openSection(name: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
}

describe('the web console', () => {
  test('signs in with an API token kept in the session, never in the URL', async () => {
    const response = await page.goto(`${server.baseUrl}/`);
    assert.equal(
      response?.headers()['content-security-policy']?.includes("script-src 'self'"),
      true,
    );
    await page.getByLabel('API token').fill('not-a-token-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await assertAccessible(page, 'the sign-in page');
    await page.getByLabel('API token').fill(server.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/editor\/main\/$/);
    assert.ok(!page.url().includes(server.adminToken));
    const stored = await page.evaluate(() => sessionStorage.getItem('fieldhouse-console-token'));
    assert.equal(stored, server.adminToken);
    await page.getByRole('heading', { name: 'Content' }).waitFor();
    await assertAccessible(page, 'the content home');
    await screenshot(page, 'content-home');
  });

  test('creates a block, a model and their fields in the schema', async () => {
    await openSection('Schema');
    await page.getByRole('button', { name: 'New block' }).click();
    await page.getByRole('dialog', { name: 'New block' }).getByLabel('Name').fill('Quote');
    await page.getByRole('button', { name: 'Create block' }).click();
    await page.getByRole('heading', { name: 'Quote', level: 1 }).waitFor();
    await addField('Text', 'string');

    await page.getByRole('button', { name: 'New model' }).click();
    await page.getByRole('dialog', { name: 'New model' }).getByLabel('Name').fill('Article');
    await page.getByRole('button', { name: 'Create model' }).click();
    await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    await addField('Title', 'string', async () => {
      await page.getByRole('dialog').getByLabel('Required').check();
    });
    await addField('Body', 'rich_text', async () => {
      await page
        .getByRole('dialog')
        .getByRole('group', { name: 'Allowed blocks' })
        .getByLabel('Quote')
        .check();
    });
    await addField('Cover', 'file');
    await assertAccessible(page, 'the schema page');
    // Reordering: Cover moves above Body.
    await page.getByRole('button', { name: 'Move Cover up' }).click();
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll('tbody tr td:first-child')).map(
        (cell) => cell.textContent,
      );
      return rows.join(',') === 'Title,Cover,Body';
    });
    const fields = await server.client().fields.list('article');
    assert.deepEqual(
      fields.sort((a, b) => a.position - b.position).map((field) => field.api_key),
      ['title', 'cover', 'body'],
    );
    await screenshot(page, 'schema');
  });

  async function addField(label: string, type: string, extra?: () => Promise<void>) {
    await page.getByRole('button', { name: 'Add field' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add field' });
    await dialog.getByLabel('Label').fill(label);
    await dialog.getByLabel('Type').selectOption(type);
    await extra?.();
    await assertAccessible(page, 'the field dialog');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: label, exact: true }).waitFor();
  }

  test('uploads an image to the media library by its file input, with progress', async () => {
    await openSection('Media');
    const image = localFile('cover.png', await solidImage(64, 48, { r: 200, g: 40, b: 40 }));
    await page.getByTestId('upload-input').setInputFiles(image);
    await page.waitForFunction(() =>
      /: (done|.*[A-Z_]{4,})/.test(document.querySelector('.dropzone li')?.textContent ?? ''),
    );
    assert.equal(await page.locator('.dropzone li').first().textContent(), 'cover.png: done');
    await page.getByRole('button', { name: 'cover.png' }).click();
    await page.getByLabel('Alt text (en)').fill('A red square');
    await page.getByLabel('Tags').fill('red, square');
    await page.getByRole('button', { name: 'Save asset' }).click();
    const client = server.client();
    let upload = (await client.uploads.list())[0];
    while (upload?.default_field_metadata.alt.en !== 'A red square') {
      await page.waitForTimeout(100);
      upload = (await client.uploads.list())[0];
    }
    assert.equal(upload.filename, 'cover.png');
    assert.deepEqual(upload.tags, ['red', 'square']);
    // The thumbnail is a rendition the asset server made.
    await page.waitForFunction(() => {
      const image = document.querySelector('.thumb img') as HTMLImageElement | null;
      return image?.complete === true && image.naturalWidth > 0;
    });
    await assertAccessible(page, 'the media library');
    await screenshot(page, 'media');
  });

  test('keeps upload collections: adds, renames and deletes them, and moves an upload in', async () => {
    const client = server.client();
    await page.getByText('Collections', { exact: true }).click();
    for (const label of ['Covers', 'Spare']) {
      await page.getByLabel('New collection').fill(label);
      await page.getByRole('button', { name: 'Add collection' }).click();
      await page.getByLabel(`Name of ${label}`).waitFor();
    }
    await page.getByLabel('Name of Covers').fill('Cover images');
    await page.getByRole('button', { name: 'Rename' }).first().click();
    await page.getByLabel('Name of Cover images').waitFor();
    await page.getByRole('button', { name: 'Delete Spare' }).click();
    await page.getByLabel('Name of Spare').waitFor({ state: 'detached' });
    const collections = await client.uploadCollections.list();
    assert.deepEqual(
      collections.map((collection) => collection.label),
      ['Cover images'],
    );
    await assertAccessible(page, 'the media library with its collections');
    await page.getByRole('button', { name: 'cover.png' }).click();
    await page.getByLabel('Collection', { exact: true }).selectOption({ label: 'Cover images' });
    await page.getByRole('button', { name: 'Save asset' }).click();
    let upload = (await client.uploads.list())[0];
    while (upload?.upload_collection?.id !== collections[0]?.id) {
      await page.waitForTimeout(100);
      upload = (await client.uploads.list())[0];
    }
  });

  test('adds a webhook in the project settings', async () => {
    await openSection('Project');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Name').fill('Site build');
    await page.getByLabel('URL').fill(`${receiver.url}/hook`);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Site build', { exact: true }).waitFor();
    await assertAccessible(page, 'the webhooks page');
  });

  test('creates a record with a block, then publishes it', async () => {
    await openSection('Content');
    await page.getByRole('link', { name: 'Article' }).click();
    await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    await assertAccessible(page, 'the record list');
    await page.getByRole('link', { name: 'New record' }).click();
    // Saving without the required title shows the API's error at the field.
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.field.invalid').getByRole('alert').waitFor();
    await page.locator('input#field-title').fill('Hello from the console');
    await page.getByRole('button', { name: 'Add block' }).click();
    await page
      .getByRole('group', { name: /Block 1: Quote/ })
      .getByLabel('Text')
      .fill('Quoted words');
    await page.getByRole('button', { name: 'Choose asset' }).click();
    await page
      .getByRole('dialog', { name: 'Media library' })
      .getByRole('button', { name: 'cover.png' })
      .click();
    await page.getByLabel(/^Alt text of asset /).fill('The cover');
    await assertAccessible(page, 'the record editor');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/editor\/main\/item_types\/[^/]+\/items\/[^/]+\/edit$/);
    recordUrl = page.url();
    await page.getByTestId('record-status').getByText('draft').waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByTestId('record-status').getByText('published').waitFor();
    await screenshot(page, 'record-editor');

    const recordId = recordUrl.split('/').at(-2) as string;
    const record = await server.client().items.find(recordId, { nested: true });
    assert.equal(record.meta.status, 'published');
    assert.equal(record.title, 'Hello from the console');
    const body = record.body as { attributes: { text: string } }[];
    assert.equal(body[0]?.attributes.text, 'Quoted words');
    const [upload] = await server.client().uploads.list();
    assert.deepEqual(record.cover, {
      upload_id: upload?.id,
      alt: 'The cover',
      title: null,
      custom_data: {},
      focal_point: null,
      poster_time: null,
    });
  });

  test('opens a record at its editing path directly, and restores a version', async () => {
    await page.goto(recordUrl);
    await page.locator('input#field-title').fill('A second title');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('record-status').getByText('updated').waitFor();
    await page
      .getByRole('button', { name: /^Restore/ })
      .first()
      .click();
    await page.waitForFunction(
      () =>
        (document.querySelector('input#field-title') as HTMLInputElement | null)?.value ===
        'Hello from the console',
    );
  });

  test("opens the delivery API's editing links, in DatoCMS's form, at the record editor", async () => {
    const [, modelId, recordId] =
      /item_types\/([^/]+)\/items\/([^/]+)\/edit$/.exec(recordUrl) ?? [];
    assert.ok(modelId && recordId, recordUrl);
    const editor = `/editor/main/item_types/${modelId}/items/${recordId}/edit`;
    for (const link of [
      `/editor/item_types/${modelId}/items/${recordId}/edit`,
      `/environments/main/editor/item_types/${modelId}/items/${recordId}/edit`,
    ]) {
      await page.goto(`${server.baseUrl}${link}`);
      await page.waitForURL((url) => url.pathname === editor);
      await page.locator('input#field-title').waitFor();
    }
  });

  test("orders a sortable model's records by button and by drag, and acts on several at once", async () => {
    const client = server.client();
    const workflow = await client.workflows.create({
      name: 'Review',
      api_key: 'review',
      stages: [
        { id: 'drafting', name: 'Drafting' },
        { id: 'approved', name: 'Approved' },
      ],
    });
    const model = await client.itemTypes.create({
      name: 'Chapter',
      api_key: 'chapter',
      sortable: true,
      draft_mode_active: true,
      workflow: { type: 'workflow', id: workflow.id },
    });
    await client.fields.create(model.id, { label: 'Name', api_key: 'name', field_type: 'string' });
    const ids: Record<string, string> = {};
    for (const name of ['One', 'Two', 'Three']) {
      ids[name] = (
        await client.items.create({ item_type: { type: 'item_type', id: model.id }, name })
      ).id;
    }
    const positions = async () => {
      const records = await client.items.list({
        filter: { type: model.id },
        order_by: 'position_ASC',
      });
      return records.map((record) => record.name).join(',');
    };
    const until = async (check: () => Promise<boolean>) => {
      while (!(await check())) await page.waitForTimeout(100);
    };
    const rowNames = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('tbody tr td:nth-child(2)'))
          .map((cell) => cell.textContent)
          .join(','),
      );

    await page.goto(`${server.baseUrl}/editor/main/item_types/${model.id}/items`);
    await page.getByLabel('Sort').selectOption('position_ASC');
    await page.getByRole('columnheader', { name: 'Order' }).waitFor();
    await until(async () => (await rowNames()) === 'One,Two,Three');
    await assertAccessible(page, 'the record list in manual order');
    // The keyboard's way: a button per direction.
    await page.getByRole('button', { name: 'Move Two up' }).click();
    await until(async () => (await positions()) === 'Two,One,Three');
    await page.waitForFunction(
      () => document.querySelector('tbody tr td:nth-child(2)')?.textContent === 'Two',
    );
    // Drag and drop: Three dropped on the first row takes its place.
    await page.getByRole('row', { name: /Three/ }).dragTo(page.getByRole('row', { name: /Two/ }));
    await until(async () => (await positions()) === 'Three,Two,One');

    // Bulk actions, through the CMA's bulk endpoints.
    await page.waitForFunction(
      () => document.querySelector('tbody tr td:nth-child(2)')?.textContent === 'Three',
    );
    await page.getByLabel('Select One').check();
    await page.getByLabel('Select Two').check();
    const bulk = page.getByRole('region', { name: 'Bulk actions' });
    await bulk.getByText('2 selected').waitFor();
    await assertAccessible(page, 'the record list with a selection');
    await bulk.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await until(async () => {
      const records = await client.items.list({ filter: { ids: `${ids.One},${ids.Two}` } });
      return records.every((record) => record.meta.status === 'published');
    });
    assert.equal((await client.items.find(ids.Three as string)).meta.status, 'draft');
    await page.getByLabel('Select Three').check();
    await page.getByLabel('Stage').selectOption('approved');
    await page.getByRole('button', { name: 'Move to stage' }).click();
    await until(
      async () => (await client.items.find(ids.Three as string)).meta.stage === 'approved',
    );
    await page.getByLabel('Select Three').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByText('2 records').waitFor();
    assert.equal(await positions(), 'Two,One');
    chapter = { modelId: model.id, recordId: ids.Two as string };
  });

  test('moves a record to a workflow stage and schedules its unpublishing in the editor', async () => {
    const client = server.client();
    await page.goto(
      `${server.baseUrl}/editor/main/item_types/${chapter.modelId}/items/${chapter.recordId}/edit`,
    );
    await page.getByTestId('record-stage').getByText('Drafting').waitFor();
    await page.getByLabel('Move to').selectOption('approved');
    await page.getByRole('button', { name: 'Move to stage' }).click();
    await page.getByTestId('record-stage').getByText('Approved').waitFor();
    assert.equal((await client.items.find(chapter.recordId)).meta.stage, 'approved');

    await page.getByLabel('Unpublish at').fill('2031-05-06T07:08');
    await page.getByRole('button', { name: 'Schedule unpublishing' }).click();
    await page.getByTestId('scheduled-unpublish').waitFor();
    const scheduled = (await client.items.find(chapter.recordId)).meta.unpublishing_scheduled_at;
    assert.equal(
      new Date(scheduled ?? '').getTime(),
      new Date('2031-05-06T07:08').getTime(),
      'the local time typed, as the browser (same machine, same zone) reads it',
    );
    await assertAccessible(page, 'the record editor with stage and schedule');
    await page.getByRole('button', { name: 'Cancel scheduled unpublishing' }).click();
    await page.getByTestId('scheduled-unpublish').waitFor({ state: 'detached' });
    assert.equal((await client.items.find(chapter.recordId)).meta.unpublishing_scheduled_at, null);
  });

  test('edits structured text with marks, links and lists', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Note', api_key: 'note' });
    await client.fields.create(model.id, {
      label: 'Content',
      api_key: 'content',
      field_type: 'structured_text',
      validators: {
        structured_text_blocks: { item_types: [] },
        structured_text_links: { item_types: [] },
      },
    });
    await page.goto(`${server.baseUrl}/editor/main/item_types/${model.id}/items/new`);
    await page.getByText('Add paragraph', { exact: true }).click();
    await page.getByLabel('Node 1 text').fill('Say **hello** to _the_ `world`');
    await page.getByText('Add paragraph', { exact: true }).click();
    await page.getByLabel('Node 2 kind').selectOption('ul');
    await page.getByLabel('Node 2 text').fill('first\n[second](https://example.com/a)');
    await assertAccessible(page, 'the structured-text editor');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/items\/[^/]+\/edit$/);
    const [record] = await client.items.list({ filter: { type: model.id } });
    const paragraph = { type: 'paragraph' };
    assert.deepEqual(record?.content, {
      schema: 'dast',
      document: {
        type: 'root',
        children: [
          {
            ...paragraph,
            children: [
              { type: 'span', value: 'Say ' },
              { type: 'span', value: 'hello', marks: ['strong'] },
              { type: 'span', value: ' to ' },
              { type: 'span', value: 'the', marks: ['emphasis'] },
              { type: 'span', value: ' ' },
              { type: 'span', value: 'world', marks: ['code'] },
            ],
          },
          {
            type: 'list',
            style: 'bulleted',
            children: [
              {
                type: 'listItem',
                children: [{ ...paragraph, children: [{ type: 'span', value: 'first' }] }],
              },
              {
                type: 'listItem',
                children: [
                  {
                    ...paragraph,
                    children: [
                      {
                        type: 'link',
                        url: 'https://example.com/a',
                        children: [{ type: 'span', value: 'second' }],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    // Opened again, the markup reads back as it was written.
    await page.getByLabel('Node 1 text').waitFor();
    assert.equal(
      await page.getByLabel('Node 1 text').inputValue(),
      'Say **hello** to _the_ `world`',
    );
  });

  test("shows the webhook's deliveries, and resends one", async () => {
    await receiver.waitForRequests(1);
    await page.goto(`${server.baseUrl}/editor/main/project/webhooks`);
    await page.getByRole('button', { name: 'Delivery log of Site build' }).click();
    for (;;) {
      if ((await page.getByTestId('delivery-status').getByText('success').count()) > 0) break;
      await page.getByRole('button', { name: 'Refresh log' }).click();
      await page.waitForTimeout(200);
    }
    const before = receiver.requests.length;
    await page.getByRole('button', { name: 'Resend' }).first().click();
    await receiver.waitForRequests(before + 1);
    await assertAccessible(page, 'the delivery log');
    await screenshot(page, 'webhooks');
  });

  test('forks an environment and promotes it', async () => {
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByLabel("New environment's ID").fill('staging');
    await page.getByRole('button', { name: 'Fork', exact: true }).click();
    await page.getByText('Forked main into staging.').waitFor();
    await page.getByRole('button', { name: 'Promote staging' }).click();
    await page.getByRole('cell', { name: 'staging (primary)' }).waitFor();
    await assertAccessible(page, 'the environments page');
    await screenshot(page, 'environments');
    const environments = await server.client().environments.list();
    assert.equal(environments.find((environment) => environment.meta.primary)?.id, 'staging');
  });

  test('fits a 390 px phone screen on every main page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['', 'schema', 'media', 'project/environments']) {
      await page.goto(`${server.baseUrl}/editor/staging/${path}`);
      await page.locator('main h1').first().waitFor();
      await assertFitsWidth(page, 390, path || 'content');
      await assertAccessible(page, `${path || 'content'} at 390 px`);
    }
    await page.goto(recordUrl.replace('/main/', '/staging/'));
    await page.locator('input#field-title').waitFor();
    await assertFitsWidth(page, 390, 'the record editor');
    await screenshot(page, 'record-editor-390');
  });
});
