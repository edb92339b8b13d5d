/**
 * The gpu-workload form stops what would fail, in the `npm start` app
 * (the processes `npm start` runs, on their own ports with the embedded
 * GitOps repository in a temp dir) and Debian's headless Chromium:
 *
 * - the cluster is a choice among the configured profiles, with provider
 *   and region;
 * - sharing modes the chosen cluster cannot run, or the team's policy
 *   forbids, are offered disabled with the reason;
 * - a blank Replicas field is an error, never a silent 1;
 * - a request over the team's GPU quota is refused in the live preview,
 *   with the quota use, and Review (hence Create) is blocked with the reason.
 *
 * The demo config (app-config.yaml) is used as is: ml-platform may hold 8
 * GPUs and already holds 0.5 (chat-assistant, 2 time slices of a T4 on dev);
 * DRA is not among the allowed sharing modes; dev runs the mixed MIG strategy
 * (no MPS), inference the single one.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { simpleGit } from 'simple-git';
import {
  launchChromium,
  saveScreenshot,
  type ScreenshotOptions,
} from '../src/browser/chromium';
import { startLocalBackstage, type LocalBackstage } from './localBackstage';

// The first start builds the app (about a minute on two cores, longer while
// other test suites share the machine).
jest.setTimeout(600_000);

describe('the gpu-workload form in Chromium (npm start)', () => {
  let temp: string;
  let backstage: LocalBackstage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-form-e2e-'));
    backstage = await startLocalBackstage({ dir: temp });
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 1280, height: 1100 },
    });
    // The app's first page takes 30-50 s on two cores shared with other
    // suites (README: start-up figures), longer than Playwright's default.
    context.setDefaultNavigationTimeout(180_000);
    page = await context.newPage();
    await page.goto(backstage.appUrl);
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.waitForURL(/\/catalog/);
  });

  afterAll(async () => {
    await browser?.close();
    await backstage?.stop();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  /** Fills the Component and Workload pages for a new workload of ml-platform and lands on the GPU page, its clusters read. */
  async function openGpuPage(name: string) {
    // A fresh tab: a half-filled form may hold its page on leaving.
    await page.close();
    page = await context.newPage();
    await page.goto(
      `${backstage.appUrl}/create/templates/default/gpu-workload`,
    );
    // Generous: the dev server shares two cores with other test suites.
    await page.locator('#root_name').fill(name, { timeout: 90_000 });
    await page.locator('#root_owner').click();
    await page.getByRole('option', { name: 'ml-platform' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .locator('#root_image')
      .fill(`ghcr.io/acme/${name}:1.0.0`, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Next' }).click();
    // The default cluster is chosen once the clusters are read, and the
    // team's quota use is shown once the owner and cluster are known.
    await page
      .locator('#gpu-cluster')
      .getByText('dev — AWS (Karpenter), us-east-1')
      .waitFor({ timeout: 30_000 });
    await page.getByTestId('gpu-quota').waitFor({ timeout: 30_000 });
  }

  /** Opens an MUI select by its label; the caller picks or inspects an option, then presses Escape. */
  async function openSelect(label: string) {
    await page.getByLabel(label, { exact: true }).click();
    return page.getByRole('listbox');
  }

  async function choose(label: string, option: RegExp) {
    const listbox = await openSelect(label);
    await listbox.getByRole('option', { name: option }).click();
  }

  const preview = () => page.getByTestId('gpu-plan-preview');
  const screenshot = (name: string, options?: ScreenshotOptions) =>
    saveScreenshot(page, name, temp, options);

  it('offers the configured clusters with provider and region', async () => {
    await openGpuPage('cluster-choice');
    const listbox = await openSelect('Cluster');
    const options = await listbox.getByRole('option').allInnerTexts();
    expect(options.map(o => o.split('\n')[0])).toEqual([
      'dev — AWS (Karpenter), us-east-1',
      'inference — AWS (Karpenter), eu-west-1',
      'prod — AWS (Karpenter), eu-central-1',
    ]);
    await page.keyboard.press('Escape');
  });

  it('shows the sharing modes the cluster or the team policy forbids disabled, with the reason', async () => {
    await openGpuPage('mode-choice');
    await choose('Cluster', /^dev /);
    let listbox = await openSelect('Sharing mode');
    const mps = listbox.getByRole('option', { name: /^MPS/ });
    expect(await mps.getAttribute('aria-disabled')).toBe('true');
    expect(await mps.innerText()).toContain(
      'cluster dev cannot run MPS: its device plugin runs the MIG strategy "mixed"',
    );
    const dra = listbox.getByRole('option', { name: /^DRA/ });
    expect(await dra.getAttribute('aria-disabled')).toBe('true');
    expect(await dra.innerText()).toContain(
      'not allowed for group:default/ml-platform',
    );
    expect(
      await listbox
        .getByRole('option', { name: /^Time-slicing/ })
        .getAttribute('aria-disabled'),
    ).not.toBe('true');
    await screenshot('app-gpu-request-form-modes.png', { wholePage: true });
    await page.keyboard.press('Escape');

    // On inference (MIG strategy "single") MPS can run.
    await choose('Cluster', /^inference /);
    listbox = await openSelect('Sharing mode');
    expect(
      await listbox
        .getByRole('option', { name: /^MPS/ })
        .getAttribute('aria-disabled'),
    ).not.toBe('true');
    await page.keyboard.press('Escape');
  });

  it('calls a blank Replicas field an error and blocks Review', async () => {
    await openGpuPage('blank-replicas');
    await page.getByRole('spinbutton', { name: 'Replicas' }).fill('');
    await preview()
      .getByText('Replicas is required')
      .waitFor({ timeout: 30_000 });
    expect(await preview().innerText()).not.toContain('Fits');
    await page.getByRole('button', { name: 'Review' }).click();
    // Blocked: the box says why, and the page stays (no Create button).
    await page
      .locator('#gpu-replicas-helper-text')
      .getByText('must be a whole number from 1 to 1000')
      .waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Create' }).count()).toBe(0);
    expect(
      await page.getByRole('spinbutton', { name: 'Replicas' }).count(),
    ).toBe(1);
  });

  it('refuses a request over the team quota in the preview, with the quota use, and blocks Review and Create', async () => {
    const before = await simpleGit(backstage.gitopsRepo).raw([
      'for-each-ref',
      '--format=%(refname)',
    ]);
    await openGpuPage('over-quota');
    await choose('Cluster', /^dev /);
    await choose('GPU model', /^NVIDIA Tesla T4 /);
    await choose('Sharing mode', /^Exclusive/);
    await page.getByRole('spinbutton', { name: 'Replicas' }).fill('8');
    await page
      .getByRole('spinbutton', { name: 'GPU memory per replica (GiB)' })
      .fill('8');

    await preview()
      .getByText('Not allowed by the team policy')
      .waitFor({ timeout: 30_000 });
    const text = await preview().innerText();
    expect(text).not.toContain('Fits');
    expect(text).toContain(
      'Replicas: GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU',
    );
    expect(await page.getByTestId('gpu-quota').innerText()).toBe(
      'GPU quota of group:default/ml-platform on dev: 0.5 used + 8 this request = 8.5 of 8 GPUs',
    );
    await screenshot('app-gpu-request-form-quota.png', { wholePage: true });

    await page.getByRole('button', { name: 'Review' }).click();
    // The step's validation refuses it with the same reason, on the field.
    await page
      .getByText(
        "'GPU request' Replicas: GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU",
        { exact: false },
      )
      .waitFor({ timeout: 30_000 });
    // Still on the GPU page: the review (and its Create button) is never reached.
    expect(await page.getByRole('button', { name: 'Create' }).count()).toBe(0);
    expect(
      await page.getByRole('spinbutton', { name: 'Replicas' }).count(),
    ).toBe(1);

    // Within the quota, the preview fits and Review leads to Create.
    await page.getByRole('spinbutton', { name: 'Replicas' }).fill('7');
    await preview().getByText(/^Fits/).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('gpu-quota').innerText()).toBe(
      'GPU quota of group:default/ml-platform on dev: 0.5 used + 7 this request = 7.5 of 8 GPUs',
    );
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Create' }).waitFor();
    // Nothing was filed on the way.
    expect(
      await simpleGit(backstage.gitopsRepo).raw([
        'for-each-ref',
        '--format=%(refname)',
      ]),
    ).toBe(before);
  });

  // The list at the top of the step after Review: `'<title>' <message>`.
  const listed = (title: string) =>
    page.getByText(new RegExp(`^'${title}' `), { exact: false });

  it("names a box the schema refuses by the form's label in the list at the top, and drops it once the value changes", async () => {
    await openGpuPage('review-labels');
    const replicas = page.getByRole('spinbutton', { name: 'Replicas' });
    await replicas.fill('');
    await page.getByRole('button', { name: 'Review' }).click();
    await page
      .locator('#gpu-replicas-helper-text')
      .getByText('must be a whole number from 1 to 1000')
      .waitFor({ timeout: 30_000 });
    expect(await listed('Replicas').allInnerTexts()).toEqual([
      "'Replicas' must be a whole number from 1 to 1000",
    ]);
    expect(await listed('Gpu Replicas').count()).toBe(0);

    // A good value: the refusal leaves the list without another Review.
    await replicas.fill('2');
    await preview().getByText(/^Fits/).waitFor({ timeout: 30_000 });
    expect(await listed('Replicas').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Review' }).count()).toBe(1);
  });

  it('drops a refusal of the last Review from the list and from under the field once the value it refused changes', async () => {
    await openGpuPage('review-stale');
    await choose('Cluster', /^dev /);
    await choose('GPU model', /^NVIDIA Tesla T4 /);
    await choose('Sharing mode', /^Exclusive/);
    const replicas = page.getByRole('spinbutton', { name: 'Replicas' });
    await replicas.fill('9');
    await preview()
      .getByText('Not allowed by the team policy')
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Review' }).click();
    const quotaRefusal = listed('GPU request').filter({
      hasText: 'Replicas: GPU quota exceeded for group:default/ml-platform',
    });
    await quotaRefusal.waitFor({ timeout: 30_000 });
    // The same refusal under the GPU field (rjsf's error text for `gpu`).
    const underField = page.locator('#root_gpu__error');
    expect(await underField.allInnerTexts()).toEqual([
      'Replicas: GPU quota exceeded for group:default/ml-platform on dev by 1.5 GPU: quota 8, already used 0.5, this request needs 9 (physical-GPU equivalents)',
    ]);

    await replicas.fill('7');
    await preview().getByText(/^Fits/).waitFor({ timeout: 30_000 });
    expect(await quotaRefusal.count()).toBe(0);
    expect(await underField.count()).toBe(0);
  });
});
