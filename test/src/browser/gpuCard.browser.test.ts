/**
 * The GPU card and tab in a real browser (Chromium via playwright-core) on
 * the plugin's dev app, against the real gpu backend over a GitOps
 * repository holding published time-sliced, MPS and MIG requests. Checks the
 * numbers a person reads and saves screenshots (docs/ with
 * GPU_SCREENSHOTS=docs, else a temp dir).
 */
import {
  builtinCatalog,
  formatGiB,
  formatReplicaGpuShare,
  formatUsd,
  parseGpuRequest,
  resolveClusterProfile,
  type GpuRequest,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import type { Browser, Page } from 'playwright-core';
import { saveScreenshot } from './chromium';
import type { DevAppServer } from './devAppServer';
import { startBrowserStack, type BrowserStack } from './browserStack';
import { componentEntity as component } from '../componentEntity';

jest.setTimeout(300_000);

// MPS needs the single MIG strategy (the device plugin refuses MPS with mixed).
const cluster = resolveClusterProfile({ name: 'dev', migStrategy: 'single' });

function gpuRequest(
  name: string,
  gpu: Partial<GpuRequest['spec']['gpu']>,
): GpuRequest {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 't4', replicas: 2, vramGiB: 4, ...gpu },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });
}

const REQUESTS = [
  gpuRequest('summarizer', {
    sharing: 'time-slicing',
    replicas: 3,
    slicesPerGpu: 4,
  }),
  gpuRequest('embedder', { model: 'l4', sharing: 'mps', vramGiB: 5 }),
  gpuRequest('tagger', { model: 'a100-40gb', sharing: 'mig', vramGiB: 8 }),
];

describe('GPU card in Chromium (dev app, real gpu backend, fixture GitOps repo)', () => {
  let temp: string;
  let stack: BrowserStack;
  let app: DevAppServer;
  let browser: Browser;
  const plans = new Map<string, Plan>();

  beforeAll(async () => {
    stack = await startBrowserStack({
      tempPrefix: 'gpu-browser-',
      seed: async ({ remote, publisherCache }) => {
        for (const request of REQUESTS) {
          const result = await publishGpuRequest({
            request,
            cluster,
            catalog: builtinCatalog,
            repoUrl: remote.url,
            forge: 'local',
            cacheDir: publisherCache,
          });
          plans.set(request.metadata.name, result.plan);
          await remote.merge(result.branch);
        }
      },
      entities: REQUESTS.map(r => component(r.metadata.name)),
      clusters: {
        default: 'dev',
        profiles: { dev: { migStrategy: 'single' } },
      },
    });
    ({ temp, app, browser } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function openPage(query: string): Promise<Page> {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`${app.url}/gpu-dev?${query}`);
    return page;
  }

  const screenshot = (page: Page, name: string) =>
    saveScreenshot(page, name, temp);

  it('shows each component its GPU share, VRAM, replicas, pool and cost as planned', async () => {
    const page = await openPage(
      REQUESTS.map(r => `entity=component:default/${r.metadata.name}`).join(
        '&',
      ),
    );
    for (const request of REQUESTS) {
      const name = request.metadata.name;
      const plan = plans.get(name)!;
      const row = page.getByTestId(`gpu-allocation-ml/${name}`);
      await row.waitFor({ timeout: 60_000 });
      const cells = await row.locator('td').allInnerTexts();
      // Request (with its pool) | Per replica (share, VRAM) | Replicas | Cost / month
      expect(cells).toHaveLength(4);
      expect(cells[2]).toBe(String(plan.request.spec.gpu.replicas));
      await expect(
        row.getByTestId('gpu-allocation-pool').innerText(),
      ).resolves.toBe(plan.pool.name);
      // Its share of the pool's nodes, then that share of the pool's price.
      expect(cells[3].split('\n')[0]).toBe(formatUsd(plan.cost.usdPerMonth));
      expect(cells[3]).toContain(`of ${formatUsd(plan.cost.pool.usdPerMonth)}`);

      // The share it holds, as the PR body words it (MIG: and its compute).
      await expect(
        row
          .getByRole('img', {
            name: `GPU per replica: ${formatReplicaGpuShare(plan.perReplica)}`,
          })
          .count(),
      ).resolves.toBe(1);
      const vram = `${formatGiB(plan.perReplica.memoryMiB)} ${
        plan.perReplica.vramGuaranteed ? 'guaranteed' : 'not guaranteed'
      }`;
      expect(cells[1]).toContain(vram);
      expect(cells[0]).toContain(plan.sharing.mode);
    }

    // The sharing modes' guarantees, as a person reads them.
    const text = (name: string) =>
      page.getByTestId(`gpu-allocation-ml/${name}`).innerText();
    expect(await text('summarizer')).toMatch(/not guaranteed/);
    expect(await text('embedder')).toMatch(/ guaranteed/);
    expect(await text('embedder')).not.toMatch(/not guaranteed/);
    expect(await text('tagger')).toContain(
      plans.get('tagger')!.sharing.migProfile!,
    );
    expect(plans.get('summarizer')!.perReplica.gpuShare).toBe(0.25);

    await screenshot(page, 'gpu-allocation-card.png');
    await page.close();
  });

  it('shows the MIG pool with its capacity and which profile sits on which slices', async () => {
    const page = await openPage('entity=component:default/tagger&view=tab');
    const plan = plans.get('tagger')!;
    const pool = page.getByTestId(`gpu-pool-${plan.pool.name}`);
    await pool.waitFor({ timeout: 60_000 });
    const layout = plan.sharing.migLayout!;
    const instances = Object.values(layout).reduce((a, b) => a + b, 0);
    const picture = pool.getByRole('list', { name: 'MIG layout' });
    await expect(
      picture
        .getByRole('listitem', {
          name: new RegExp(
            `^${plan.sharing.migProfile!.replace('.', '\\.')} on slices`,
          ),
        })
        .count(),
    ).resolves.toBe(layout[plan.sharing.migProfile!]);
    await expect(
      picture.getByRole('listitem', { name: / on slices / }).count(),
    ).resolves.toBe(instances);
    expect(await pool.innerText()).toContain(
      `This component: ${plan.request.spec.gpu.replicas * plan.resourcePerReplica} ${plan.resourceName}`,
    );
    await screenshot(page, 'gpu-tab-pools.png');
    await page.close();
  });

  it('previews the plan of the request typed into the GpuRequestPicker from the real backend', async () => {
    const page = await openPage('view=picker');
    await page.getByLabel('GPU model').click();
    await page.getByRole('option', { name: /^NVIDIA L4 — / }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByLabel('Sharing mode').click();
    await page.getByRole('option', { name: /^Time-slicing/ }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.getByRole('spinbutton', { name: 'Replicas' }).fill('4');

    const answered = page.waitForResponse(
      r =>
        new URL(r.url()).pathname.endsWith('/api/gpu/plan') &&
        r.request().postDataJSON().spec.gpu.vramGiB === 6,
    );
    await page
      .getByRole('spinbutton', { name: 'GPU memory per replica (GiB)' })
      .fill('6');
    const response = await answered;
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON();
    expect(sent.spec.gpu).toEqual({
      model: 'l4',
      sharing: 'time-slicing',
      replicas: 4,
      vramGiB: 6,
      gpusPerReplica: 1,
    });
    const { plan } = await response.json();

    const preview = page.getByTestId('gpu-plan-preview');
    // The answer has arrived; wait until it is the one shown (an earlier
    // answer, for 4 replicas of another size, also says "Fits: 4 ×").
    await preview.getByText(/^6\.0 GiB asked/).waitFor({ timeout: 30_000 });
    await preview
      .getByText(`Fits: 4 × ${plan.resourcePerReplica} ${plan.resourceName}`)
      .waitFor({ timeout: 30_000 });
    const facts = await preview.getByLabel('Plan preview').innerText();
    expect(facts).toContain(
      `6.0 GiB asked: ${formatGiB(plan.perReplica.memoryMiB)} NOT guaranteed`,
    );
    expect(facts).toContain(
      `${plan.nodes.expected} × ${plan.nodes.instanceType}`,
    );
    expect(facts).toContain(
      `${formatUsd(plan.cost.usdPerMonth)}/month: its share of pool`,
    );
    expect(facts).toContain(
      `${formatUsd(plan.cost.marginalUsdPerMonth)}/month`,
    );
    expect(facts).toContain(plan.pool.name);
    await screenshot(page, 'gpu-request-picker.png');

    // 100 GiB does not fit an L4: the planner's issue is shown, not a plan.
    await page
      .getByRole('spinbutton', { name: 'GPU memory per replica (GiB)' })
      .fill('100');
    await preview
      .getByText('Does not fit', { exact: true })
      .waitFor({ timeout: 30_000 });
    expect(
      await preview.getByRole('list', { name: 'Plan issues' }).innerText(),
    ).toMatch(/^GPU memory per replica: /m);
    await page.close();
  });
});
