import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (package `chromium`; .ci/run installs it when missing). */
export const CHROMIUM_PATH = process.env.FIELDHOUSE_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  assert.ok(
    existsSync(CHROMIUM_PATH),
    `no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set FIELDHOUSE_CHROMIUM)`,
  );
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
};

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the console's
 * Content-Security-Policy stays on) and fails on any serious or critical violation.
 */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  })) as AxeViolation[];
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    blocking.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
    [],
    `accessibility violations on ${where}`,
  );
}

/** At a phone's width nothing may scroll sideways: the layout fits the viewport. */
export async function assertFitsWidth(page: Page, width: number, where: string): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${where} is ${scrollWidth}px wide at a ${width}px viewport`);
}

/** Screenshots go where FIELDHOUSE_CONSOLE_SCREENSHOTS says (docs/console to refresh the docs). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.FIELDHOUSE_CONSOLE_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}
