/**
 * Live data through the real backend: `GET /allocation` carries what the
 * cluster's Prometheus (real, with a week of DCGM exporter history) says
 * the allocation's GPUs did, `GET /pools` what each pool's GPUs did, and
 * with Prometheus unreachable both carry intent as before with the reason —
 * never an error.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import { dcgmHistory } from './__testUtils__/dcgmExporter';
import {
  createFixtureRemote,
  type FixtureRemote,
} from './__testUtils__/fixtureRemote';
import {
  startPrometheus,
  type PrometheusServer,
} from './__testUtils__/prometheusServer';
import { schedulerHandle } from './__testUtils__/schedulerHandle';
import { gpuPlugin, LIVE_DATA_REFRESH_TASK_ID } from './plugin';

jest.setTimeout(120_000);

const trainer: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'trainer',
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': 'trainer' },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
};

const batch: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'batch',
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': 'batch' },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'group:vision' },
};

describe('gpu backend with gpu.utilization', () => {
  let remote: FixtureRemote;
  let temp: string;
  let prometheus: PrometheusServer;
  const handle = schedulerHandle();

  beforeAll(async () => {
    remote = await createFixtureRemote();
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-live-'));
    const published = await publishGpuRequest({
      request: parseGpuRequest({
        kind: 'GpuRequest',
        metadata: { name: 'trainer', namespace: 'ml' },
        spec: {
          owner: 'group:default/ml-platform',
          gpu: { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 12 },
          workload: { image: 'ghcr.io/acme/trainer:1.0.0' },
        },
      }),
      cluster: resolveClusterProfile({ name: 'dev' }),
      catalog: builtinCatalog,
      repoUrl: remote.url,
      cacheDir: path.join(temp, 'publisher'),
    });
    await remote.merge(published.branch);
    // A second exclusive T4 request: the same pool, another node.
    const second = await publishGpuRequest({
      request: parseGpuRequest({
        kind: 'GpuRequest',
        metadata: { name: 'batch', namespace: 'vision' },
        spec: {
          owner: 'group:default/vision',
          gpu: { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 12 },
          workload: { image: 'ghcr.io/acme/batch:1.0.0' },
        },
      }),
      cluster: resolveClusterProfile({ name: 'dev' }),
      catalog: builtinCatalog,
      repoUrl: remote.url,
      cacheDir: path.join(temp, 'publisher-2'),
    });
    await remote.merge(second.branch);
    // A week of its pod on its own T4: 2.5 GiB used, 3 % busy; batch's pod
    // on another T4, 60 % busy; a third T4 on which no pod ran (its pool
    // cannot be told from the exporter's labels).
    // Samples on the hour, where the 1h subqueries (VRAM total, idle
    // hours) look: an hourly sample between their steps is never seen.
    const end = Math.floor(Date.now() / 3_600_000) * 3600;
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
            host: 'ip-10-0-1-8',
            gpu: '0',
            uuid: 'GPU-2',
            modelName: 'Tesla T4',
            fbTotalMiB: 15360,
            pod: {
              namespace: 'vision',
              name: 'batch-5f7c9d8b6-q8w2e',
              container: 'batch',
            },
            fbUsedMiB: () => 10240,
            engineActive: () => 0.6,
            gpuUtil: () => 60,
          },
          {
            host: 'ip-10-0-1-9',
            gpu: '0',
            uuid: 'GPU-3',
            modelName: 'Tesla T4',
            fbTotalMiB: 15360,
            fbUsedMiB: () => 0,
            engineActive: () => 0,
            gpuUtil: () => 0,
          },
        ],
        168,
        end,
      ),
    });
  });

  afterAll(async () => {
    await prometheus?.stop();
    await remote?.cleanup();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  const startBackend = (prometheusUrl: string) =>
    startTestBackend({
      features: [
        gpuPlugin,
        handle.module,
        catalogServiceMock.factory({ entities: [trainer, batch] }),
        mockServices.rootConfig.factory({
          data: {
            gpu: {
              gitops: {
                repoUrl: remote.url,
                cacheDir: path.join(temp, 'cache'),
              },
              clusters: { default: 'dev', profiles: { dev: {} } },
              index: { refresh: '1h' },
              utilization: {
                refresh: '1h',
                clusters: { dev: { prometheusUrl, timeoutSeconds: 2 } },
              },
            },
          },
        }),
      ],
    });

  it("GET /allocation carries the allocation's measured use and the cluster's live status", async () => {
    const backend = await startBackend(prometheus.baseUrl);
    try {
      await handle.scheduler().triggerTask(LIVE_DATA_REFRESH_TASK_ID);
      let body: any;
      const deadline = Date.now() + 30_000;
      do {
        await new Promise(resolve => setTimeout(resolve, 200));
        body = (
          await request(backend.server)
            .get('/api/gpu/allocation')
            .query({ entityRef: 'component:default/trainer' })
        ).body;
      } while (!body.live?.[0]?.available && Date.now() < deadline);
      expect(body.live).toEqual([
        {
          cluster: 'dev',
          source: 'prometheus',
          available: true,
          at: expect.any(String),
        },
      ]);
      const [allocation] = body.allocations;
      expect(allocation.utilization).toEqual({
        attribution: 'per-pod',
        window: '7d',
        sources: 1,
        vramP95MiB: 2560,
        vramPeakMiB: 2560,
        vramAllottedMiB: allocation.vramMiBPerReplica,
        active: 0.03,
        idleHours: expect.any(Number),
        status: 'idle',
        reason: 'engine active 3.0 % on average over 7d',
      });
      // Right-size: 2.5 GiB used of a 15 GiB exclusive GPU. The suggestion
      // is the planner's, so POST /plan of its request says the same money.
      const rightSize = (
        await request(backend.server)
          .get('/api/gpu/right-size')
          .query({ entityRef: 'component:default/trainer' })
      ).body;
      expect(rightSize.entityRef).toBe('component:default/trainer');
      expect(rightSize.suggestions).toHaveLength(1);
      expect(rightSize.suggestions[0]).toMatchObject({
        id: allocation.id,
        cluster: 'dev',
      });
      const suggestion = rightSize.suggestions[0].suggestion;
      expect(suggestion).toMatchObject({
        requestSpec: { gpu: { vramGiB: 3.5, replicas: 1, model: 't4' } },
        reason:
          'its pods peaked at 2560 MiB over 7d; 3.5 GiB per replica keeps a quarter of headroom',
      });
      expect(suggestion.sharingMode).not.toBe('exclusive');
      expect(suggestion.vramMiBPerReplica).toBeGreaterThanOrEqual(2560 * 1.25);
      expect(suggestion.savedUsdPerMonth).toBeCloseTo(
        allocation.usdPerMonth - suggestion.usdPerMonth,
        2,
      );
      expect(suggestion.savedUsdPerMonth).toBeGreaterThan(0);
      const preview = await request(backend.server)
        .post('/api/gpu/plan')
        .send({
          kind: 'GpuRequest',
          metadata: { name: 'trainer', namespace: 'ml' },
          spec: suggestion.requestSpec,
        });
      expect(preview.status).toBe(200);
      expect(preview.body.plan.cost.usdPerMonth).toBe(suggestion.usdPerMonth);
      expect(preview.body.plan.pool.name).toBe(suggestion.pool);
    } finally {
      await backend.stop();
    }
  });

  it("GET /pools carries each pool's GPUs seen, busy and idle, and what the idle ones cost", async () => {
    const backend = await startBackend(prometheus.baseUrl);
    try {
      await handle.scheduler().triggerTask(LIVE_DATA_REFRESH_TASK_ID);
      let body: any;
      const deadline = Date.now() + 30_000;
      do {
        await new Promise(resolve => setTimeout(resolve, 200));
        body = (await request(backend.server).get('/api/gpu/pools')).body;
      } while (!body.live?.[0]?.available && Date.now() < deadline);
      expect(body.live).toEqual([
        {
          cluster: 'dev',
          source: 'prometheus',
          available: true,
          at: expect.any(String),
        },
      ]);
      const pool = body.pools.find((p: any) =>
        p.consumers.some((c: any) => c.id === 'ml/trainer'),
      );
      // Two GPUs with a pod of the pool: trainer's idle (3 %), batch's busy
      // (60 %); the T4 nobody ran on is not the pool's to count.
      expect(pool.utilization).toEqual({
        window: '7d',
        gpusSeen: 2,
        busyGpus: 1,
        idleGpus: 1,
        vramUsedMiB: 2560 + 10240,
        vramTotalMiB: 2 * 15360,
        // One idle GPU at the price of one GPU of the pool's node.
        idleUsdPerMonth: expect.any(Number),
      });
      const gpusPerNode = pool.cost.capacityUnits / pool.cost.nodes;
      expect(Math.round(pool.utilization.idleUsdPerMonth * 100)).toBe(
        Math.round((pool.cost.nodeUsdPerMonth * 100) / gpusPerNode),
      );
      expect(pool.utilization.idleUsdPerMonth).toBeGreaterThan(0);
      // The consumers carry their entity's owner and the card's badge.
      expect(pool.consumers).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: 'ml/trainer',
            entityRef: 'component:default/trainer',
            owner: 'group:default/ml-platform',
            utilizationStatus: 'idle',
          }),
          expect.objectContaining({
            id: 'vision/batch',
            entityRef: 'component:default/batch',
            owner: 'group:default/vision',
            utilizationStatus: 'ok',
          }),
        ]),
      );
      // The same figures for the one pool.
      const one = await request(backend.server).get(
        `/api/gpu/pools/${pool.name}`,
      );
      expect(one.status).toBe(200);
      expect(one.body.utilization).toEqual(pool.utilization);
    } finally {
      await backend.stop();
    }
  });

  it('with Prometheus unreachable, serves intent with the reason', async () => {
    const backend = await startBackend('http://127.0.0.1:9');
    try {
      await handle.scheduler().triggerTask(LIVE_DATA_REFRESH_TASK_ID);
      let body: any;
      const deadline = Date.now() + 30_000;
      do {
        await new Promise(resolve => setTimeout(resolve, 200));
        const res = await request(backend.server)
          .get('/api/gpu/allocation')
          .query({ entityRef: 'component:default/trainer' });
        expect(res.status).toBe(200);
        body = res.body;
      } while (
        body.live?.[0]?.reason === 'not read yet' &&
        Date.now() < deadline
      );
      expect(body.live).toEqual([
        {
          cluster: 'dev',
          source: 'prometheus',
          available: false,
          reason: expect.stringMatching(
            /^Prometheus at 127\.0\.0\.1:9 cannot be reached/,
          ),
        },
      ]);
      expect(body.allocations).toHaveLength(1);
      expect(body.allocations[0].utilization).toBeUndefined();
      expect(body.allocations[0].pool).toMatch(/^gpu-t4/);
      const pools = (await request(backend.server).get('/api/gpu/pools')).body;
      expect(pools.live).toEqual(body.live);
      expect(pools.pools.length).toBeGreaterThan(0);
      for (const pool of pools.pools) {
        expect(pool.utilization).toBeUndefined();
      }
    } finally {
      await backend.stop();
    }
  });
});
