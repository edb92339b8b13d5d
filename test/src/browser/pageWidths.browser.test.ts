/**
 * Every GPU page reads whole at 1280 and 1920 px: no table column is cut
 * off or scrolled out of sight (seen: the GPU page's Teams table lost its
 * Drift and Idle cost columns at 1280 px), nothing reaches past the window's
 * right edge, no table header breaks inside a word and no amount of money
 * breaks over two lines (seen: "$16,029.0 / 8"). The GPU page, the
 * pull-request list, one pull request's review page, an entity's GPU tab,
 * the scaffolder's GPU fields (the GpuRequestPicker with its plan preview)
 * and the Release form's preview, in Chromium on the plugin's dev app
 * against the real gpu and scaffolder backends; the card at the overview's
 * half width is cardWidths.browser.test.ts's. Screenshots at each width
 * (docs/ with GPU_SCREENSHOTS=docs).
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

const WIDTHS = [1280, 1920];
const cluster = resolveClusterProfile({ name: 'dev', migStrategy: 'single' });

/** What of a page's tables a reader cannot see at this width. */
function cutOff(page: Page) {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const found: string[] = [];
    for (const table of Array.from(document.querySelectorAll('table'))) {
      // A column scrolled out of sight: a box between the table and the page scrolls.
      for (
        let el: HTMLElement | null = table;
        el && el !== document.body;
        el = el.parentElement
      ) {
        if (el.scrollWidth > el.clientWidth + 1) {
          const style = getComputedStyle(el);
          if (style.overflowX !== 'visible' || el === table) {
            found.push(
              `${table.getAttribute('aria-label') ?? table.innerText.split('\n')[0]}: scrolls ${el.scrollWidth - el.clientWidth} px`,
            );
            break;
          }
        }
      }
      for (const cell of Array.from(table.querySelectorAll('th, td'))) {
        const right = Math.round(cell.getBoundingClientRect().right);
        if (right > viewport) {
          found.push(
            `${(cell as HTMLElement).innerText}: right edge ${right} > ${viewport}`,
          );
        }
      }
    }
    return found;
  });
}

/** Words of table headers and amounts of money that lie on more than one line. */
function brokenText(page: Page) {
  return page.evaluate(() => {
    const broken: string[] = [];
    const check = (node: Node, pattern: RegExp) => {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(pattern)) {
        const range = document.createRange();
        range.setStart(node, match.index!);
        range.setEnd(node, match.index! + match[0].length);
        const tops = new Set(
          Array.from(range.getClientRects()).map(r => Math.round(r.top)),
        );
        if (tops.size > 1) broken.push(match[0]);
      }
    };
    const walker = document.createTreeWalker(
      document.body,
      NodeFilter.SHOW_TEXT,
    );
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const inHeader = !!node.parentElement?.closest('th');
      check(node, inHeader ? /\S+/g : /\$[\d,]+\.\d\d/g);
    }
    return broken;
  });
}

/**
 * The visible elements whose right edge lies past the window's (a form box
 * or a preview line cut off), and the page's own sideways scroll.
 */
function pastRightEdge(page: Page) {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const found: string[] = [];
    const scroll = document.documentElement.scrollWidth - viewport;
    if (scroll > 1) found.push(`the page scrolls ${scroll} px sideways`);
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      const visible = box.width > 0 && box.height > 0;
      if (visible && Math.round(box.right) > viewport) {
        const text = (el as HTMLElement).innerText ?? '';
        found.push(
          `${el.tagName} "${text.slice(0, 40)}": right edge ${Math.round(box.right)} > ${viewport}`,
        );
      }
    }
    return found;
  });
}

describe('GPU pages at 1280 and 1920 px in Chromium', () => {
  let temp: string;
  let stack: BrowserStack;
  let app: DevAppServer;
  let browser: Browser;
  let openBranch: string;

  beforeAll(async () => {
    stack = await startBrowserStack({
      tempPrefix: 'gpu-browser-pages-',
      seed: async ({ remote, publisherCache }) => {
        const publish = (
          name: string,
          gpu: Record<string, unknown>,
          owner = 'group:default/ml-platform',
        ) =>
          publishGpuRequest({
            request: parseGpuRequest({
              apiVersion: 'gpu.backstage.io/v1alpha1',
              kind: 'GpuRequest',
              metadata: { name, namespace: 'ml' },
              spec: {
                owner,
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
        for (const [name, gpu] of [
          ['summarizer', { model: 't4', sharing: 'time-slicing', replicas: 3 }],
          [
            'tagger',
            { model: 'a100-40gb', sharing: 'mig', replicas: 2, vramGiB: 8 },
          ],
          // Not in the catalog: its cost still counts, for requests one may not see.
          ['inference', { model: 'l4', sharing: 'exclusive', replicas: 2 }],
        ] as const) {
          await remote.merge((await publish(name, gpu)).branch);
        }
        // One open pull request to review.
        openBranch = (
          await publish('ranker', {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 1,
          })
        ).branch;
      },
      entities: ['summarizer', 'tagger', 'ranker'].map(component),
      clusters: {
        default: 'dev',
        profiles: { dev: { migStrategy: 'single' } },
      },
      updatePullRequests: false,
      // The Release form's preview is the scaffolder's dry run of the release.
      scaffolder: true,
    });
    ({ temp, app, browser } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function open(width: number, path: string, ready: string) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${app.url}${path}`);
    await page.getByTestId(ready).first().waitFor({ timeout: 60_000 });
    // Quota figures and the like load after the tables.
    await page.waitForLoadState('networkidle');
    return page;
  }

  it.each(WIDTHS)('at %i px the GPU page shows every column', async width => {
    const page = await open(width, '/gpu', 'gpu-overview-teams');
    await page
      .getByTestId('gpu-overview-teams')
      .getByText('ml-platform', { exact: false })
      .first()
      .waitFor({ timeout: 60_000 });
    await saveScreenshot(page, `gpu-page-${width}.png`, temp);
    expect(await cutOff(page)).toEqual([]);
    expect(await brokenText(page)).toEqual([]);
    await page.close();
  });

  it.each(WIDTHS)(
    'at %i px the pull-request list and review page show every column',
    async width => {
      const page = await open(
        width,
        '/gpu/pull-requests',
        `gpu-pr-${openBranch}`,
      );
      await saveScreenshot(page, `gpu-pull-requests-${width}.png`, temp);
      expect(await cutOff(page)).toEqual([]);
      expect(await brokenText(page)).toEqual([]);

      await page.goto(
        `${app.url}/gpu/pull-requests/${openBranch.replace(/^gpu\//, '')}`,
      );
      await page.getByLabel('Diff').waitFor({ timeout: 60_000 });
      await saveScreenshot(page, `gpu-pull-request-${width}.png`, temp);
      expect(await cutOff(page)).toEqual([]);
      expect(await brokenText(page)).toEqual([]);
      await page.close();
    },
  );

  it.each(WIDTHS)('at %i px the GPU tab shows every column', async width => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(
      `${app.url}/gpu-dev?entity=component:default/tagger&view=tab`,
    );
    await page.getByRole('list', { name: 'MIG layout' }).first().waitFor({
      timeout: 60_000,
    });
    await page.waitForLoadState('networkidle');
    await saveScreenshot(page, `gpu-tab-${width}.png`, temp);
    expect(await cutOff(page)).toEqual([]);
    expect(await pastRightEdge(page)).toEqual([]);
    expect(await brokenText(page)).toEqual([]);
    await page.close();
  });

  it.each(WIDTHS)(
    'at %i px the GPU fields of the request form and their preview fit',
    async width => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${app.url}/gpu-dev?view=picker`);
      // The preview of the default request, planned by the backend.
      await page
        .getByTestId('gpu-plan-preview')
        .getByText(/^Fits:/)
        .waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await saveScreenshot(page, `gpu-request-form-${width}.png`, temp);
      expect(await cutOff(page)).toEqual([]);
      expect(await pastRightEdge(page)).toEqual([]);
      expect(await brokenText(page)).toEqual([]);
      await page.close();
    },
  );

  it.each(WIDTHS)(
    'at %i px the Release form and its preview fit',
    async width => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(
        `${app.url}/gpu-dev?view=release&namespace=ml&name=summarizer`,
      );
      await page
        .getByRole('list', { name: 'Deletes' })
        .waitFor({ timeout: 120_000 });
      await saveScreenshot(page, `gpu-release-form-${width}.png`, temp);
      expect(await cutOff(page)).toEqual([]);
      expect(await pastRightEdge(page)).toEqual([]);
      expect(await brokenText(page)).toEqual([]);
      await page.close();
    },
  );
});
