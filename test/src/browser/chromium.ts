/**
 * Debian's Chromium (never a downloaded browser build) driven by
 * playwright-core, and the screenshots the browser tests save: into docs/
 * with GPU_SCREENSHOTS=docs (the pictures of the README and its guides), else into the test's
 * temp dir.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const DOCS_DIR = path.resolve(__dirname, '../../../docs');

/** Headless Chromium for a test; fails with the fix when the package is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Saves a full-page screenshot named `name` (docs/ with GPU_SCREENSHOTS=docs,
 * else `fallbackDir`) and returns its path. A near-empty picture means a
 * blank page, so it is an error.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  fallbackDir: string,
): Promise<string> {
  const dir = process.env.GPU_SCREENSHOTS === 'docs' ? DOCS_DIR : fallbackDir;
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await page.screenshot({ path: file, fullPage: true });
  const { size } = await fs.stat(file);
  if (size < 10_000) {
    throw new Error(
      `screenshot ${file} is ${size} bytes: the page looks blank`,
    );
  }
  return file;
}
