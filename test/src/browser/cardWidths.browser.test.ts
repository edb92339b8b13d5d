/**
 * The GPU card and tab read well from 900 to 1920 px: at each width no
 * table header breaks inside a word (seen: "Rep lica s" at 1400 px and
 * below), the card's table fits its card (seen: at half width, 1280-1400
 * px, the Cost / month column scrolled out of sight) and no pool name
 * breaks at its hyphens. The card is measured where the catalog's overview
 * puts it: a half-width grid column (Grid md=6) from 960 px up, the full
 * width below. Screenshots at each width (docs/ with GPU_SCREENSHOTS=docs).
 */
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import type { Browser, Page } from 'playwright-core';
import { saveScreenshot } from './chromium';
import type { DevAppServer } from './devAppServer';
import { startBrowserStack, type BrowserStack } from './browserStack';
import { componentEntity as component } from '../componentEntity';

jest.setTimeout(300_000);

const WIDTHS = [900, 1280, 1400, 1920];
const cluster = resolveClusterProfile({ name: 'dev', migStrategy: 'single' });

/**
 * The header cells whose text breaks inside a word: a word whose letters
 * lie on more than one line box.
 */
function brokenHeaders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of Array.from(document.querySelectorAll('th'))) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const tops = new Set(
            Array.from(range.getClientRects()).map(r => Math.round(r.top)),
          );
          if (tops.size > 1) broken.push(`${cell.innerText} (${match[0]})`);
        }
      }
    }
    return broken;
  });
}

/**
 * How the card's table sits in its card: how far it overflows (scrollWidth
 * over clientWidth of the card's scrolling content), each cost cell's right
 * edge against the card's, and the pool names that lie on several lines.
 */
function cardLayout(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector(
      'table[aria-label="GPU requests"]',
    ) as HTMLElement;
    // The card's box in the dev page's content (one box per card).
    const article = document.querySelector('article') as HTMLElement;
    let card = table;
    while (card.parentElement && card.parentElement !== article) {
      card = card.parentElement;
    }
    let overflow = 0;
    for (
      let el: HTMLElement | null = table;
      el && el !== article;
      el = el.parentElement
    ) {
      overflow = Math.max(overflow, el.scrollWidth - el.clientWidth);
    }
    const cardRight = card.getBoundingClientRect().right;
    const costRights = Array.from(
      document.querySelectorAll('[data-testid="gpu-allocation-cost"]'),
    ).map(cell => Math.round(cell.getBoundingClientRect().right));
    const brokenPools = Array.from(
      document.querySelectorAll('[data-testid="gpu-allocation-pool"]'),
    )
      .filter(name => name.getClientRects().length > 1)
      .map(name => name.textContent);
    return {
      overflow,
      cardRight: Math.round(cardRight),
      costRights,
      brokenPools,
    };
  });
}

describe('GPU card and tab from 900 to 1920 px in Chromium', () => {
  let temp: string;
  let stack: BrowserStack;
  let app: DevAppServer;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startBrowserStack({
      tempPrefix: 'gpu-browser-widths-',
      seed: async ({ remote, publisherCache }) => {
        for (const [name, gpu] of [
          ['summarizer', { model: 't4', sharing: 'time-slicing', replicas: 3 }],
          [
            'tagger',
            { model: 'a100-40gb', sharing: 'mig', replicas: 2, vramGiB: 8 },
          ],
        ] as const) {
          const result = await publishGpuRequest({
            request: parseGpuRequest({
              apiVersion: 'gpu.backstage.io/v1alpha1',
              kind: 'GpuRequest',
              metadata: { name, namespace: 'ml' },
              spec: {
                owner: 'group:default/ml-platform',
                gpu: { vramGiB: 4, ...gpu },
                workload: { image: `ghcr.io/acme/${name}:1.0.0` },
              },
            }),
            cluster,
            catalog: builtinCatalog,
            repoUrl: remote.url,
            forge: 'local',
            cacheDir: publisherCache,
          });
          await remote.merge(result.branch);
        }
      },
      entities: ['summarizer', 'tagger'].map(component),
      clusters: {
        default: 'dev',
        profiles: { dev: { migStrategy: 'single' } },
      },
      updatePullRequests: false,
    });
    ({ temp, app, browser } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each(WIDTHS)(
    'at %i px no header of the card or the tab breaks inside a word',
    async width => {
      const page = await browser.newPage({
        viewport: { width, height: 900 },
      });
      await page.goto(
        `${app.url}/gpu-dev?entity=component:default/summarizer&entity=component:default/tagger`,
      );
      const row = page.getByTestId('gpu-allocation-ml/tagger');
      await row.waitFor({ timeout: 60_000 });
      // The overview's grid: each card in a half-width column from md (960 px) up.
      if (width >= 960) {
        await page.evaluate(() => {
          // The dev page's content holds one box per card (title + card).
          const content = document.querySelector('article') as HTMLElement;
          for (const box of Array.from(content.children)) {
            (box as HTMLElement).style.width =
              `${content.clientWidth / 2 - 12}px`;
          }
        });
      }
      await saveScreenshot(page, `gpu-allocation-card-${width}.png`, temp);
      expect(await brokenHeaders(page)).toEqual([]);
      const layout = await cardLayout(page);
      // The whole table in its card: nothing to scroll, every cost in view.
      expect(layout.overflow).toBe(0);
      expect(layout.costRights).toHaveLength(2);
      for (const right of layout.costRights) {
        expect(right).toBeLessThanOrEqual(layout.cardRight);
      }
      expect(layout.brokenPools).toEqual([]);

      await page.goto(
        `${app.url}/gpu-dev?entity=component:default/tagger&view=tab`,
      );
      await page.getByRole('list', { name: 'MIG layout' }).first().waitFor({
        timeout: 60_000,
      });
      await saveScreenshot(page, `gpu-tab-pools-${width}.png`, temp);
      expect(await brokenHeaders(page)).toEqual([]);
      await page.close();
    },
  );
});
