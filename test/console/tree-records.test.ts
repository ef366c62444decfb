import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, assertFitsWidth } from '../support/browser.ts';
import { signedInConsole, until } from '../support/console-page.ts';
import { useTestServer } from '../support/server.ts';

// A tree model's record list in manual order: the records shown as a tree, and a record
// moved under another parent with the keyboard's "Move under…", driven in Chromium.

const server = useTestServer();
const client = server.client();
let browser: Browser;
let page: Page;
const ids: Record<string, string> = {};

before(async () => {
  await server.ready();
  const model = await client.itemTypes.create({ name: 'Place', api_key: 'place', tree: true });
  await client.fields.create(model.id, { label: 'Name', api_key: 'name', field_type: 'string' });
  const create = async (name: string, parent?: string) => {
    const record = await client.items.create({
      item_type: { type: 'item_type', id: model.id },
      name,
      ...(parent ? { parent_id: parent } : {}),
    });
    ids[name] = record.id;
  };
  await create('Europe');
  await create('Asia');
  await create('France', ids.Europe);
  ids.model = model.id;
  ({ browser, page } = await signedInConsole(server));
});

after(async () => {
  await browser?.close();
});

/** The rows as "name@depth", in the order shown. */
const shownTree = () =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('tbody tr td:nth-child(2)'))
      .map((cell) => {
        const padding = Number.parseFloat((cell as HTMLElement).style.paddingLeft || '0');
        return `${cell.querySelector('a')?.textContent}@${padding / 1.25}`;
      })
      .join(','),
  );

const parentOf = async (name: string) =>
  (await client.items.find(ids[name] as string)).parent_id ?? null;

async function moveUnder(name: string, parent: string) {
  await page.getByRole('button', { name: `Move under… (${name})` }).click();
  const dialog = page.getByRole('dialog', { name: `Move ${name} under…` });
  await dialog.getByLabel('New parent').selectOption({ label: parent });
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('tree records in the console', () => {
  test('lists a tree model in manual order as a tree', async () => {
    await page.goto(
      `${server.baseUrl}/editor/main/item_types/${ids.model}/items?order=position_ASC`,
    );
    await until(page, async () => (await shownTree()) === 'Europe@0,France@1,Asia@0');
    await assertAccessible(page, 'a tree model in manual order');
  });

  test('moves a record under another parent, never under itself or its own children', async () => {
    await moveUnder('France', 'Asia');
    await until(page, async () => (await parentOf('France')) === ids.Asia);
    await until(page, async () => (await shownTree()) === 'Europe@0,Asia@0,France@1');

    await page.getByRole('button', { name: 'Move under… (Asia)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move Asia under…' });
    const offered = (await dialog.getByLabel('New parent').locator('option').allTextContents()).map(
      (text) => text.trim(),
    );
    assert.deepEqual(offered, ['Top level', 'Europe']);
    await assertAccessible(page, 'the move-under dialog');
    await dialog.getByLabel('New parent').selectOption({ label: 'Europe' });
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await until(page, async () => (await parentOf('Asia')) === ids.Europe);
    assert.equal(await parentOf('France'), ids.Asia);
    await until(page, async () => (await shownTree()) === 'Europe@0,Asia@1,France@2');
  });

  test('moves a record back to the top level, last among the roots', async () => {
    await moveUnder('France', 'Top level');
    await until(page, async () => (await parentOf('France')) === null);
    const roots = await client.items.list({
      filter: { type: ids.model, fields: { parent_id: { exists: false } } },
      order_by: 'position_ASC',
    });
    assert.deepEqual(
      roots.map((record) => record.name),
      ['Europe', 'France'],
    );
    await until(page, async () => (await shownTree()) === 'Europe@0,Asia@1,France@0');
  });

  test('fits a 390 px screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await assertFitsWidth(page, 390, 'a tree record list');
    await assertAccessible(page, 'a tree record list at 390 px');
  });
});
