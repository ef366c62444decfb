import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth, screenshot } from '../support/browser.ts';
import { signedInConsole, until } from '../support/console-page.ts';
import { localFile, solidImage } from '../support/images.ts';
import { useTestServer } from '../support/server.ts';

// The media library's collections as a tree, browsing by collection, and moving uploads
// between collections, driven in Chromium. The steps build on each other, in order.

const server = useTestServer();
const client = server.client();
let browser: Browser;
let page: Page;

before(async () => {
  await server.ready();
  ({ browser, page } = await signedInConsole(server));
});

after(async () => {
  await browser?.close();
});

const collectionId = async (label: string) =>
  (await client.uploadCollections.list()).find((c) => c.label === label)?.id;

/** The file names the media browser shows, in its order. */
const shownFiles = () =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('.thumb > span:last-child'))
      .map((name) => name.textContent)
      .join(','),
  );

describe('media collections in the console', () => {
  test('adds collections inside others and moves one under another', async () => {
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Media' })
      .click();
    await page.getByText('Collections', { exact: true }).click();
    const add = async (label: string, inside: string) => {
      await page.getByLabel('New collection').fill(label);
      await page.getByLabel('Inside', { exact: true }).selectOption({ label: inside });
      await page.getByRole('button', { name: 'Add collection' }).click();
      await page.getByLabel(`Name of ${label}`).waitFor();
    };
    await add('Photos', 'Top level');
    await add('Summer', 'Photos');
    await add('Docs', 'Top level');
    const photos = await collectionId('Photos');
    const summer = (await client.uploadCollections.list()).find((c) => c.label === 'Summer');
    assert.equal(summer?.parent?.id, photos);
    // The tree shows Summer inside Photos' list item.
    await page
      .locator('li', { has: page.getByLabel('Name of Photos') })
      .getByLabel('Name of Summer')
      .waitFor();

    // A collection is never offered as a place inside itself or its own children.
    const places = await page.getByLabel('Place of Photos').locator('option').allTextContents();
    assert.deepEqual(places, ['Top level', 'Docs']);
    await page.getByLabel('Place of Docs').selectOption({ label: 'Photos / Summer' });
    await page.getByRole('button', { name: 'Move Docs' }).click();
    await until(page, async () => {
      const docs = (await client.uploadCollections.list()).find((c) => c.label === 'Docs');
      return docs?.parent?.id === summer?.id;
    });
    await page
      .locator('li', { has: page.getByLabel('Name of Summer') })
      .getByLabel('Name of Docs')
      .waitFor();
    await assertAccessible(page, 'the media library with nested collections');
    await screenshot(page, 'media-collections');
  });

  test('uploads into the collection being browsed, and browses a collection with those inside it', async () => {
    const summer = await collectionId('Summer');
    await page.getByLabel('Browse collection').selectOption({ label: 'Photos / Summer' });
    const image = localFile('beach.png', await solidImage(32, 24, { r: 20, g: 120, b: 220 }));
    await page.getByTestId('upload-input').setInputFiles(image);
    await page.getByRole('button', { name: 'beach.png' }).waitFor();
    const [beach] = await client.uploads.list({
      filter: { fields: { filename: { eq: 'beach.png' } } },
    });
    assert.equal(beach?.upload_collection?.id, summer);

    await page.getByLabel('Browse collection').selectOption({ label: 'All' });
    await page.getByTestId('upload-input').setInputFiles(localFile('notes.txt', 'loose notes'));
    await page.getByRole('button', { name: 'notes.txt' }).waitFor();
    const [notes] = await client.uploads.list({
      filter: { fields: { filename: { eq: 'notes.txt' } } },
    });
    assert.equal(notes?.upload_collection, null);

    // Photos holds nothing itself: it shows what its collections hold.
    await page.getByLabel('Browse collection').selectOption({ label: 'Photos' });
    await until(page, async () => (await shownFiles()) === 'beach.png');
    await page.getByLabel('Browse collection').selectOption({ label: 'In no collection' });
    await until(page, async () => (await shownFiles()) === 'notes.txt');
    await assertAccessible(page, 'the media library browsing a collection');
  });

  test('moves an upload to another collection from its details', async () => {
    await page.getByRole('button', { name: 'notes.txt' }).click();
    await page
      .getByRole('complementary', { name: 'Asset details' })
      .getByLabel('Collection', { exact: true })
      .selectOption({ label: 'Photos / Summer / Docs' });
    await page.getByRole('button', { name: 'Save asset' }).click();
    const docs = await collectionId('Docs');
    await until(page, async () => {
      const [notes] = await client.uploads.list({
        filter: { fields: { filename: { eq: 'notes.txt' } } },
      });
      return notes?.upload_collection?.id === docs;
    });
    // It left "In no collection", which is being browsed.
    await until(page, async () => (await shownFiles()) === '');
    await page.getByLabel('Browse collection').selectOption({ label: 'Photos / Summer / Docs' });
    await until(page, async () => (await shownFiles()) === 'notes.txt');
  });

  test('fits a 390 px screen with the tree open', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Name of Docs').waitFor();
    await assertFitsWidth(page, 390, 'the media library with nested collections');
    await assertAccessible(page, 'the media library at 390 px');
  });
});
