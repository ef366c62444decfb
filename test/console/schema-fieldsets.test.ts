import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth } from '../support/browser.ts';
import { signedInConsole, until } from '../support/console-page.ts';
import { useTestServer } from '../support/server.ts';

// The schema editor's fieldsets (added, edited, deleted, fields put in them) and a field's
// appearance (its editor and the editor's parameters), driven in Chromium. In order.

const server = useTestServer();
const client = server.client();
let browser: Browser;
let page: Page;
let modelId = '';

before(async () => {
  await server.ready();
  const model = await client.itemTypes.create({ name: 'Post', api_key: 'post' });
  modelId = model.id;
  await client.fields.create(model.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await client.fields.create(model.id, {
    label: 'Summary',
    api_key: 'summary',
    field_type: 'text',
  });
  ({ browser, page } = await signedInConsole(server));
});

after(async () => {
  await browser?.close();
});

const fieldsets = async () =>
  (await client.fieldsets.list(modelId)).sort((a, b) => a.position - b.position);
const field = async (apiKey: string) =>
  (await client.fields.list(modelId)).find((candidate) => candidate.api_key === apiKey);

async function editField(label: string) {
  await page.getByRole('button', { name: `Edit ${label}` }).click();
  return page.getByRole('dialog', { name: `Edit ${label}` });
}

describe('fieldsets and appearance in the schema editor', () => {
  test('adds fieldsets and edits one', async () => {
    await page.goto(`${server.baseUrl}/editor/main/schema/${modelId}`);
    await page.getByText('Fieldsets', { exact: true }).click();
    for (const title of ['SEO', 'Extra']) {
      await page.getByLabel('New fieldset').fill(title);
      await page.getByRole('button', { name: 'Add fieldset' }).click();
      await page.getByLabel(`Title of ${title}`).waitFor();
    }
    assert.deepEqual(
      (await fieldsets()).map((set) => set.title),
      ['SEO', 'Extra'],
    );
    const seo = page.getByRole('form', { name: 'Fieldset SEO' });
    await seo.getByLabel('Title of SEO').fill('Search');
    await seo.getByLabel('Hint of SEO').fill('For search engines');
    await seo.getByLabel('Collapsible').check();
    await seo.getByLabel('Starts collapsed').check();
    await seo.getByRole('button', { name: 'Save SEO' }).click();
    await until(page, async () => (await fieldsets())[0]?.title === 'Search');
    const [search] = await fieldsets();
    assert.equal(search?.hint, 'For search engines');
    assert.equal(search?.collapsible, true);
    assert.equal(search?.start_collapsed, true);
    await page.getByLabel('Title of Search').waitFor();
    await assertAccessible(page, 'the schema page with fieldsets');
  });

  test("puts a field in a fieldset and sets its editor and the editor's parameters", async () => {
    const dialog = await editField('Summary');
    await dialog.getByLabel('Fieldset').selectOption({ label: 'Search' });
    await dialog.getByLabel('Editor', { exact: true }).selectOption('markdown');
    await dialog.getByLabel('Editor parameters').fill('{"toolbar": ["bold", "italic"]}');
    await assertAccessible(page, 'the field dialog with its appearance');
    await dialog.getByRole('button', { name: 'Save field' }).click();
    await dialog.waitFor({ state: 'detached' });
    const [search] = await fieldsets();
    const summary = await field('summary');
    assert.equal(summary?.fieldset?.id, search?.id);
    assert.deepEqual(summary?.appearance.editor, 'markdown');
    assert.deepEqual(summary?.appearance.parameters, { toolbar: ['bold', 'italic'] });
    await page.getByRole('row', { name: /Summary.*Search/ }).waitFor();
  });

  test("the record editor shows the fieldset's fields inside it, collapsed as it says", async () => {
    await page.goto(`${server.baseUrl}/editor/main/item_types/${modelId}/items/new`);
    await page.getByLabel('Title').waitFor();
    const group = page.locator('details', { has: page.getByText('Search', { exact: true }) });
    await group.getByText('For search engines').waitFor({ state: 'hidden' });
    assert.equal(await page.getByLabel('Summary').isVisible(), false);
    await group.getByText('Search', { exact: true }).click();
    await group.getByLabel('Summary').waitFor();
    await group.getByText('For search engines').waitFor();
    await assertAccessible(page, 'the record editor with a fieldset');
    await page.goto(`${server.baseUrl}/editor/main/schema/${modelId}`);
    await page.getByRole('button', { name: 'Edit Title' }).waitFor();
  });

  test('shows why parameters are refused, and changes nothing', async () => {
    const dialog = await editField('Title');
    await dialog.getByLabel('Editor parameters').fill('{"heading": ');
    await dialog.getByRole('button', { name: 'Save field' }).click();
    await dialog.getByRole('alert').getByText('Editor parameters must be JSON').waitFor();
    await dialog.getByLabel('Editor parameters').fill('{"heading": "very"}');
    await dialog.getByRole('button', { name: 'Save field' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/INVALID_FIELD.*heading/)
      .waitFor();
    const title = await field('title');
    assert.equal(title?.appearance.editor, 'single_line');
    assert.deepEqual(title?.appearance.parameters, { heading: false });
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  test('deletes a fieldset, keeping its fields', async () => {
    await page.getByRole('button', { name: 'Delete Search' }).click();
    await until(page, async () => (await fieldsets()).length === 1);
    const summary = await field('summary');
    assert.equal(summary?.fieldset, null);
    await page.getByLabel('Title of Search').waitFor({ state: 'detached' });
    assert.deepEqual(
      (await fieldsets()).map((set) => set.title),
      ['Extra'],
    );
  });

  test('fits a 390 px screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await assertFitsWidth(page, 390, 'the schema page with fieldsets');
    await assertAccessible(page, 'the schema page at 390 px');
  });
});
