import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';

/**
 * A Chromium page signed in to the console of a test server, at 1280 px. What the page
 * reports (its errors, API answers of 400 and above) goes to the test's output, so a
 * failing step shows why. Confirmation prompts are accepted.
 */
export async function signedInConsole(server: {
  baseUrl: string;
  adminToken: string;
}): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const request = response.request();
    process.stderr.write(`${response.status()} ${request.method()} ${response.url()}\n`);
    response.text().then(
      (body) => process.stderr.write(`  ${request.postData() ?? ''}\n  ${body}\n`),
      () => {},
    );
  });
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(`${server.baseUrl}/`);
  await page.getByLabel('API token').fill(server.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/editor\/main\/$/);
  return { browser, page };
}

/** Polls `check` until it holds: the API catches up with what the page did. */
export async function until(page: Page, check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await page.waitForTimeout(100);
}
