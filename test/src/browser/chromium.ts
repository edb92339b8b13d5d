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

/** What `saveScreenshot` takes. */
export type ScreenshotOptions = {
  /**
   * The whole page, not the window: Backstage's pages scroll inside their
   * content (an element of the window's height with `overflow-y: auto`),
   * so Playwright's `fullPage`, which measures the document
   * (playwright-core 1.65.1 `page.screenshot`), stops at the window's height.
   * The window grows by what those elements hide, then gets its size back.
   */
  wholePage?: boolean;
};

/** The most any scrolled part of the page (the document or an element) hides below the window. */
function hiddenHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    let hidden = 0;
    for (const element of Array.from(document.querySelectorAll('*'))) {
      const { overflowY } = getComputedStyle(element);
      const scrolls =
        element === document.scrollingElement ||
        overflowY === 'auto' ||
        overflowY === 'scroll';
      if (scrolls) {
        hidden = Math.max(hidden, element.scrollHeight - element.clientHeight);
      }
    }
    return hidden;
  });
}

/** Runs `shoot` with the window as tall as the page, then gives the window its size back. */
async function withWindowAsTallAsPage<T>(
  page: Page,
  shoot: () => Promise<T>,
): Promise<T> {
  const window = page.viewportSize();
  if (!window) return shoot();
  // A page whose parts fill the window (height: 100vh) grows with it: a
  // few rounds, until nothing is hidden.
  let height = window.height;
  for (let round = 0; round < 3; round++) {
    const hidden = await hiddenHeight(page);
    if (hidden <= 0) break;
    height += hidden;
    await page.setViewportSize({ width: window.width, height });
  }
  try {
    return await shoot();
  } finally {
    await page.setViewportSize(window);
  }
}

/**
 * Saves a screenshot named `name` (docs/ with GPU_SCREENSHOTS=docs, else
 * `fallbackDir`), of the window or with `wholePage` of the whole page, and
 * returns its path. A near-empty picture means a blank page, so it is an
 * error.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  fallbackDir: string,
  options: ScreenshotOptions = {},
): Promise<string> {
  const dir = process.env.GPU_SCREENSHOTS === 'docs' ? DOCS_DIR : fallbackDir;
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  const shoot = () => page.screenshot({ path: file, fullPage: true });
  await (options.wholePage ? withWindowAsTallAsPage(page, shoot) : shoot());
  const { size } = await fs.stat(file);
  if (size < 10_000) {
    throw new Error(
      `screenshot ${file} is ${size} bytes: the page looks blank`,
    );
  }
  return file;
}
