/**
 * The product end to end, as a newcomer uses it after `npm start`: the
 * processes `npm start` runs (the local backend and the app's dev server),
 * on their own ports with the embedded GitOps repository in a temp dir, and
 * Debian's headless Chromium. Signs in as guest (the demo user of
 * ml-platform), opens "Request GPUs" on a component (the form starts filled
 * in from it), files the GPU request with the gpu-workload template (the
 * GpuRequestPicker's live plan preview from the real backend), waits for
 * the task, follows its "Pull request" link to the app's review page, merges
 * there and sees the component's GPU card show the allocation.
 *
 * Screenshots (form, task output, card) land in docs/ with
 * GPU_SCREENSHOTS=docs, else in the test's temp dir.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { parse } from 'yaml';
import { launchChromium, saveScreenshot } from '../src/browser/chromium';
import { startLocalBackstage, type LocalBackstage } from './localBackstage';

// The first start builds the app (about a minute on two cores, longer while
// other test suites share the machine).
jest.setTimeout(600_000);

const BRANCH = 'gpu/ml-recommender-api';
const REQUEST_FILE = 'requests/ml/recommender-api.yaml';

describe('npm start, end to end in Chromium', () => {
  let temp: string;
  let backstage: LocalBackstage;
  let browser: Browser;
  let page: Page;
  let pullRequestHref: string;

  beforeAll(async () => {
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-e2e-'));
    backstage = await startLocalBackstage({
      dir: temp,
      // The card reads main; see a merge within a second, not a minute.
      config: { gpu: { index: { refresh: { seconds: 1 } } } },
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    // The app's first page takes 30-50 s on two cores shared with other
    // suites (README: start-up figures), longer than Playwright's default.
    page.setDefaultNavigationTimeout(180_000);
  });

  afterAll(async () => {
    await browser?.close();
    await backstage?.stop();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  const screenshot = (name: string) => saveScreenshot(page, name, temp);

  it('signs in as guest and lands on the catalog with the demo components', async () => {
    await page.goto(backstage.appUrl);
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.waitForURL(/\/catalog/);
    await page
      .getByRole('link', { name: 'recommender-api' })
      .waitFor({ timeout: 120_000 });
    expect(
      await page.getByRole('link', { name: 'chat-assistant' }).count(),
    ).toBe(1);
  });

  it('"Request GPUs" on a component opens the gpu-workload form filled in from it; with a live plan preview the task pushes the pull-request branch', async () => {
    await page.goto(
      `${backstage.appUrl}/catalog/default/component/recommender-api`,
    );
    // A LinkButton: a link with the role of a button.
    await page
      .getByRole('button', { name: 'Request GPUs' })
      .click({ timeout: 60_000 });
    await page.waitForURL(
      /\/create\/templates\/default\/gpu-workload\?formData=/,
    );

    // Component page: name, namespace and owner come from the component.
    await page.locator('#root_name').waitFor({ timeout: 60_000 });
    expect(await page.locator('#root_name').inputValue()).toBe(
      'recommender-api',
    );
    expect(await page.locator('#root_namespace').inputValue()).toBe('ml');
    expect(await page.locator('#root_owner').inputValue()).toBe(
      'group:default/ml-platform',
    );
    await page.getByRole('button', { name: 'Next' }).click();

    // Workload page: the Deployment the GitOps repository already runs.
    expect(await page.locator('#root_workloadType').innerText()).toMatch(
      /^An existing Deployment/,
    );
    expect(await page.locator('#root_existingName').inputValue()).toBe(
      'recommender-api',
    );
    // The GpuWorkloadContainerPicker reads the workload from the repository:
    // one container, chosen by itself, and its replicas now.
    await page
      .getByTestId('gpu-workload-replicas')
      .getByText('3 replicas now')
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Next' }).click();

    // GPU page: the GpuRequestPicker previews the plan from the backend as it changes.
    const preview = page.getByTestId('gpu-plan-preview');
    await page.getByLabel('GPU model').click();
    await page.getByRole('option', { name: /^NVIDIA L4 — / }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByLabel('Sharing mode').click();
    await page.getByRole('option', { name: /^Time-slicing/ }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByRole('spinbutton', { name: 'Replicas' }).fill('2');
    await page
      .getByRole('spinbutton', { name: 'GPU memory per replica (GiB)' })
      .fill('4');
    // Wait for the preview of the last value typed: the one before (the
    // component's 8 GiB) also fits 2 × 1, and the preview is debounced.
    await preview
      .getByText(/^4\.0 GiB asked/)
      .waitFor({ timeout: 30_000 });
    await preview
      .getByText('Fits: 2 × 1 nvidia.com/gpu')
      .waitFor({ timeout: 30_000 });
    const facts = await preview.getByLabel('Plan preview').innerText();
    expect(facts).toMatch(/Sharing\s+time-slicing/);
    // Asked, and what a time slice of an L4 gives (one unit, one decimal).
    expect(facts).toMatch(
      /VRAM per replica\s+4\.0 GiB asked: 4\.4 GiB NOT guaranteed/,
    );
    // The existing workload named on the Workload page, with its replicas now.
    expect(facts).toContain(
      'Existing Deployment recommender-api: 3 replicas now → 2 requested (containers: api; GPU to api)',
    );
    await screenshot('app-gpu-request-form.png');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Create' }).click();

    // The task page: every step done, the pull request among the outputs.
    const pullRequest = page.getByRole('link', { name: 'Pull request' });
    await pullRequest.waitFor({ timeout: 180_000 });
    await page.getByText('Pull request description').waitFor();
    await screenshot('app-task-output.png');
    pullRequestHref = (await pullRequest.getAttribute('href')) ?? '';
  });

  it("the output links the app's review page of the branch, which holds the request, and the component", async () => {
    expect(pullRequestHref).toBe(
      `${backstage.appUrl}/gpu/pull-requests/ml-recommender-api`,
    );
    expect(
      await page
        .getByRole('link', { name: 'Component in the catalog' })
        .count(),
    ).toBe(1);

    const bare = simpleGit(backstage.gitopsRepo);
    const stored = parse(await bare.show([`${BRANCH}:${REQUEST_FILE}`]));
    expect(stored.spec.owner).toBe('group:default/ml-platform');
    expect(stored.spec.gpu).toMatchObject({
      model: 'l4',
      sharing: 'time-slicing',
      replicas: 2,
      vramGiB: 4,
    });
    expect(stored.spec.workload.existing).toMatchObject({
      kind: 'Deployment',
      name: 'recommender-api',
    });
    // A pull request, not a push to main.
    const mainFiles = await bare.raw(['ls-tree', '-r', '--name-only', 'main']);
    expect(mainFiles.split('\n')).not.toContain(REQUEST_FILE);
  });

  it("merges on the review page, and recommender-api's GPU card shows the request", async () => {
    await page.goto(pullRequestHref);
    await page
      .getByRole('heading', { name: /^GPU: ml\/recommender-api/ })
      .waitFor({ timeout: 60_000 });
    expect(await page.getByLabel('Diff').innerText()).toContain(
      `+++ b/${REQUEST_FILE}`,
    );
    await screenshot('app-pull-request.png');
    await page.getByRole('button', { name: 'Merge into main' }).click();
    await page
      .getByRole('status')
      .getByText(/^Merged into main as /)
      .waitFor({ timeout: 60_000 });
    const bare = simpleGit(backstage.gitopsRepo);
    expect(await bare.raw(['ls-tree', '-r', '--name-only', 'main'])).toContain(
      REQUEST_FILE,
    );

    // The backend re-reads main every second; reload until the card has it.
    const row = page.getByTestId('gpu-allocation-ml/recommender-api');
    const deadline = Date.now() + 60_000;
    for (;;) {
      await page.goto(
        `${backstage.appUrl}/catalog/default/component/recommender-api`,
      );
      await page.getByText('GPU allocation').first().waitFor();
      try {
        await row.waitFor({ timeout: 3_000 });
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.join(' | ')).toContain('NVIDIA L4');
    expect(cells.join(' | ')).toContain('time-slicing');
    expect(cells).toContain('2');
    await screenshot('app-entity-card.png');
  });
});
