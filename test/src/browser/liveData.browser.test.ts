/**
 * Live data in a real browser (Chromium via playwright-core) on the
 * plugin's dev app, against the real gpu backend reading a real Prometheus
 * (Debian's, backfilled with a week of DCGM exporter series) and the fake
 * Kubernetes API server (the one faked part): the card's measured use,
 * idle badge and right-size suggestion, and the drift badge, each checked
 * against what `GET /allocation` says, with screenshots (docs/ with
 * GPU_SCREENSHOTS=docs, else a temp dir).
 */
import type { AddressInfo } from 'node:net';
import {
  builtinCatalog,
  centsToUsd,
  formatUsd,
  nodeOverlayName,
  parseGpuRequest,
  resolveClusterProfile,
  usdToCents,
  type AllocationResponse,
  type GpuRequest,
  type Plan,
  type PoolSummary,
  type PoolsResponse,
  type RightSizeResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import { dcgmHistory } from '@gpu-gitops/plugin-gpu-backend/src/__testUtils__/dcgmExporter';
import {
  configMap,
  failedScheduling,
  nodeOverlay,
  nodePool,
  pendingPod,
} from '@gpu-gitops/plugin-gpu-backend/src/__testUtils__/clusterFixtures';
import {
  backstageKubernetesConfig,
  startKubernetesApiServer,
  type KubernetesApiServer,
} from '@gpu-gitops/plugin-gpu-backend/src/__testUtils__/kubernetesApiServer';
import {
  startPrometheus,
  type PrometheusServer,
} from '@gpu-gitops/plugin-gpu-backend/src/__testUtils__/prometheusServer';
import type { Browser, Page } from 'playwright-core';
import { saveScreenshot } from './chromium';
import type { DevAppServer } from './devAppServer';
import { startBrowserStack, type BrowserStack } from './browserStack';
import { componentEntity as component } from '../componentEntity';

jest.setTimeout(300_000);

const TOKEN = 'browser-test-sa-token';
const cluster = resolveClusterProfile({ name: 'dev' });

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
      gpu: { model: 't4', replicas: 1, vramGiB: 4, ...gpu },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });
}

const REQUESTS = [
  // A whole T4 that used 2.5 GiB at 3 % busy: idle, and a right-size.
  gpuRequest('trainer', { sharing: 'exclusive', vramGiB: 12 }),
  // Time-sliced, on a cluster whose NodeOverlay gate is off: drift.
  gpuRequest('chat', { sharing: 'time-slicing', replicas: 2, vramGiB: 3 }),
];

describe('live data in Chromium (dev app, real gpu backend, real Prometheus, fake Kubernetes API)', () => {
  let temp: string;
  let stack: BrowserStack;
  let app: DevAppServer;
  let browser: Browser;
  let prometheus: PrometheusServer;
  let api: KubernetesApiServer;
  const plans = new Map<string, Plan>();

  beforeAll(async () => {
    const now = new Date();
    const end = Math.floor(now.getTime() / 1000) - 60;
    prometheus = await startPrometheus({
      history: dcgmHistory(
        [
          {
            host: 'ip-10-0-1-7',
            gpu: '0',
            uuid: 'GPU-1',
            modelName: 'Tesla T4',
            fbTotalMiB: 15360,
            pod: {
              namespace: 'ml',
              name: 'trainer-66b9d8c7f4-x2k9q',
              container: 'trainer',
            },
            fbUsedMiB: () => 2560,
            engineActive: () => 0.03,
            gpuUtil: () => 3,
          },
          {
            host: 'ip-10-0-1-9',
            gpu: '0',
            uuid: 'GPU-2',
            modelName: 'Tesla T4',
            fbTotalMiB: 15360,
            pod: {
              namespace: 'ml',
              name: 'chat-6d5f7c9b8-r4t5y',
              container: 'chat',
            },
            fbUsedMiB: hour => 5120 + (hour % 4) * 512,
            engineActive: () => 0.45,
            gpuUtil: () => 45,
          },
        ],
        168,
        end,
      ),
    });
    // Empty until the seed knows the pools' names.
    api = await startKubernetesApiServer({
      token: TOKEN,
      contents: {
        nodePools: [],
        nodeOverlays: [],
        nodes: [],
        pods: [],
        events: [],
        configMaps: [],
      },
    });
    stack = await startBrowserStack({
      tempPrefix: 'gpu-browser-live-',
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
        const chat = plans.get('chat')!;
        const trainer = plans.get('trainer')!;
        api.setContents({
          nodePools: [
            nodePool(chat.pool.name, { now }),
            nodePool(trainer.pool.name, { now }),
          ],
          nodeOverlays: chat.pool.gpuCounts.map(count =>
            nodeOverlay(
              nodeOverlayName(chat.pool.name, count),
              chat.pool.name,
              {
                now,
              },
            ),
          ),
          nodes: [],
          pods: [
            pendingPod('ml', 'chat-6d5f7c9b8-q7w2e', {
              ageMinutes: 25,
              now,
            }),
          ],
          events: [
            failedScheduling(
              'ml',
              'chat-6d5f7c9b8-q7w2e',
              `0/4 nodes are available: 4 Insufficient ${chat.resourceName}.`,
              { ageMinutes: 2, now },
            ),
          ],
          configMaps: [
            configMap('gpu-operator', 'nvidia-device-plugin-configs', {
              [chat.sharing.deviceConfigName!]: 'version: v1\n',
            }),
          ],
        });
      },
      entities: REQUESTS.map(r => component(r.metadata.name)),
      clusters: { default: 'dev', profiles: { dev: {} } },
      config: {
        kubernetes: backstageKubernetesConfig({
          name: 'dev',
          url: api.url,
          token: TOKEN,
          caData: api.caData,
        }),
        gpu: {
          utilization: {
            // Short, so the first read after the index is built comes soon.
            refresh: { seconds: 2 },
            clusters: {
              dev: { prometheusUrl: prometheus.baseUrl, timeoutSeconds: 5 },
            },
          },
        },
      },
    });
    ({ temp, app, browser } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
    await api?.stop();
    await prometheus?.stop();
  });

  const backendUrl = () =>
    `http://127.0.0.1:${(stack.backend.server.address() as AddressInfo).port}`;

  /** GET /allocation once both live sources have been read. */
  async function liveAllocation(name: string): Promise<AllocationResponse> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(
        `${backendUrl()}/api/gpu/allocation?entityRef=component:default/${name}`,
      );
      const body = (await res.json()) as AllocationResponse;
      const read =
        body.live?.length === 2 &&
        body.live.every(s => s.available) &&
        body.allocations.length === 1;
      if (read) return body;
      if (Date.now() > deadline) {
        throw new Error(
          `no live data for ${name}: ${JSON.stringify(body.live)}`,
        );
      }
      await new Promise(resolve => setTimeout(resolve, 500));
    }
  }

  async function openPage(query: string, height = 900): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height } });
    await page.goto(`${app.url}/gpu-dev?${query}`);
    return page;
  }

  it('shows measured use, the idle badge, a right-size and drift as GET /allocation says', async () => {
    const [trainer] = (await liveAllocation('trainer')).allocations;
    const [chat] = (await liveAllocation('chat')).allocations;
    expect(trainer.utilization?.status).toBe('idle');
    const rightSizes = (await (
      await fetch(
        `${backendUrl()}/api/gpu/right-size?entityRef=component:default/trainer`,
      )
    ).json()) as RightSizeResponse;
    const suggestion = rightSizes.suggestions.find(
      s => s.id === trainer.id,
    )!.suggestion;
    expect(chat.drift?.map(f => f.kind)).toEqual([
      'nodeoverlay-gate-off',
      'pods-pending',
    ]);

    // Tall enough for both cards: the app scrolls inside its own frame.
    const page = await openPage(
      'entity=component:default/trainer&entity=component:default/chat',
      1400,
    );
    const trainerRow = page.getByTestId('gpu-allocation-ml/trainer');
    await trainerRow
      .getByTestId('gpu-allocation-used')
      .waitFor({ timeout: 60_000 });
    expect(
      await trainerRow.getByTestId('gpu-allocation-used').innerText(),
    ).toContain('used 2.5 GiB p95, peak 2.5 GiB · 3 % busy');
    expect(
      await trainerRow.getByTestId('gpu-allocation-badge').innerText(),
    ).toBe('idle');
    // Asked after the card shows the allocation: it comes a moment later.
    const rightSizeLine = trainerRow.getByTestId('gpu-allocation-right-size');
    await rightSizeLine.waitFor({ timeout: 30_000 });
    const rightSize = await rightSizeLine.innerText();
    // The same money as the API (and the PR "Change GPUs" opens).
    expect(rightSize).toContain(
      `on ${suggestion.pool} — saves ${formatUsd(suggestion.savedUsdPerMonth)}/month`,
    );
    expect(suggestion.usdPerMonth + suggestion.savedUsdPerMonth).toBeCloseTo(
      trainer.usdPerMonth,
      2,
    );

    const chatRow = page.getByTestId('gpu-allocation-ml/chat');
    const drift = chatRow.getByTestId('gpu-drift');
    await drift.waitFor({ timeout: 30_000 });
    expect(await drift.innerText()).toContain(
      `drift ×2\n${chat.drift![0].message}`.split('\n')[0],
    );
    expect(await drift.innerText()).toContain(chat.drift![0].message);
    // Hover until the tooltip opens: on a loaded machine the card may still
    // move under the pointer (a late live figure), and the tooltip closes.
    const tooltip = page.getByRole('tooltip');
    const hovered = Date.now() + 60_000;
    for (;;) {
      await drift.getByText('drift ×2').hover();
      try {
        await tooltip.waitFor({ timeout: 3_000 });
        break;
      } catch (error) {
        if (Date.now() > hovered) throw error;
        await page.mouse.move(0, 0);
      }
    }
    expect(await tooltip.innerText()).toContain(
      `0/4 nodes are available: 4 Insufficient ${plans.get('chat')!.resourceName}.`,
    );
    await saveScreenshot(page, 'gpu-allocation-card-live.png', temp);
    await page.close();
  });

  it('shows the GPU page: every pool with its live figures and drift, sums that add up to GET /pools', async () => {
    await liveAllocation('chat');
    const pools = (await (
      await fetch(`${backendUrl()}/api/gpu/pools`)
    ).json()) as PoolsResponse;
    const page = await browser.newPage({
      viewport: { width: 1440, height: 1000 },
    });
    await page.goto(`${app.url}/gpu`);
    const table = page.getByTestId('gpu-overview-pools');
    await table.waitFor({ timeout: 60_000 });
    const cents = (pick: (p: PoolSummary) => number | undefined) =>
      pools.pools.reduce((sum, p) => sum + usdToCents(pick(p) ?? 0), 0);
    const idleGpus = pools.pools.reduce(
      (sum, p) => sum + (p.utilization?.idleGpus ?? 0),
      0,
    );
    const totals = (
      await page.getByTestId('gpu-overview-totals').innerText()
    ).match(
      /^All pools: (\S+) per month, of which (\S+) unallocated; (\d+) idle GPUs? costs? (\S+) per month\.$/,
    );
    expect(totals?.slice(1)).toEqual([
      formatUsd(centsToUsd(cents(p => p.cost.usdPerMonth))),
      formatUsd(centsToUsd(cents(p => p.cost.idleUsdPerMonth))),
      String(idleGpus),
      formatUsd(centsToUsd(cents(p => p.utilization?.idleUsdPerMonth))),
    ]);
    /** The table row of a pool, by its Pool cell: its name, then its GPU. */
    const rowOf = (name: string) =>
      table.getByRole('row').filter({
        has: page.getByRole('cell', {
          name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
        }),
      });
    for (const pool of pools.pools) {
      const row = rowOf(pool.name);
      const text = await row.innerText();
      expect(text).toContain(formatUsd(pool.cost.usdPerMonth));
      if (pool.utilization) {
        expect(text).toContain(
          `${pool.utilization.busyGpus} busy, ${pool.utilization.idleGpus} idle`,
        );
      }
    }
    expect(
      await rowOf(plans.get('chat')!.pool.name)
        .getByTestId('gpu-drift')
        .innerText(),
    ).toBe('drift');
    await saveScreenshot(page, 'gpu-overview-page.png', temp);
    await page.close();
  });

  it('shows the GPU tab with used and idle GPUs per pool and the pool drift', async () => {
    await liveAllocation('trainer');
    const page = await openPage(
      'entity=component:default/trainer&view=tab',
      1500,
    );
    const trainerPool = plans.get('trainer')!.pool.name;
    const pool = page.getByTestId(`gpu-pool-${trainerPool}`);
    await pool.getByTestId('pool-figures').waitFor({ timeout: 60_000 });
    // The trainer's T4 idled at 3 %: one GPU seen, none busy.
    expect(await pool.getByTestId('pool-figures').innerText()).toContain(
      '0 of 1 GPUs busy',
    );
    await saveScreenshot(page, 'gpu-tab-pools-live.png', temp);
    await page.close();
  });
});
