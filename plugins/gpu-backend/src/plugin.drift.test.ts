/**
 * Drift through the real backend: with the cluster in Backstage's own
 * `kubernetes` config (service-account token, CA), `GET /allocation` says
 * where the cluster differs from Git for the entity's request, and with
 * the API unreachable it carries intent as before with the reason.
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
  nodeOverlayName,
  parseGpuRequest,
  resolveClusterProfile,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import {
  configMap,
  failedScheduling,
  node,
  nodeOverlay,
  nodePool,
  pendingPod,
} from './__testUtils__/clusterFixtures';
import {
  createFixtureRemote,
  type FixtureRemote,
} from './__testUtils__/fixtureRemote';
import {
  startKubernetesApiServer,
  type KubernetesApiServer,
} from './__testUtils__/kubernetesApiServer';
import { schedulerHandle } from './__testUtils__/schedulerHandle';
import { gpuPlugin, LIVE_DATA_REFRESH_TASK_ID } from './plugin';

jest.setTimeout(120_000);

const TOKEN = 'backstage-sa-token-91c2';

const chat: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'chat',
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': 'chat' },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
};

describe('gpu backend with drift from the Kubernetes API', () => {
  let remote: FixtureRemote;
  let temp: string;
  let api: KubernetesApiServer;
  let plan: Plan;
  const handle = schedulerHandle();

  beforeAll(async () => {
    remote = await createFixtureRemote();
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-drift-'));
    const published = await publishGpuRequest({
      request: parseGpuRequest({
        kind: 'GpuRequest',
        metadata: { name: 'chat', namespace: 'ml' },
        spec: {
          owner: 'group:default/ml-platform',
          gpu: {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 2,
            vramGiB: 3,
          },
          workload: { image: 'ghcr.io/acme/chat:1.0.0' },
        },
      }),
      cluster: resolveClusterProfile({ name: 'dev' }),
      catalog: builtinCatalog,
      repoUrl: remote.url,
      cacheDir: path.join(temp, 'publisher'),
    });
    await remote.merge(published.branch);
    plan = published.plan;
    const now = new Date();
    const pool = plan.pool.name;
    api = await startKubernetesApiServer({
      token: TOKEN,
      contents: {
        nodePools: [nodePool(pool, { now })],
        // The overlays Git has, never validated: the feature gate is off.
        nodeOverlays: plan.pool.gpuCounts.map(count =>
          nodeOverlay(nodeOverlayName(pool, count), pool, { now }),
        ),
        nodes: [
          node('ip-10-0-1-7', {
            pool,
            labels: {
              'nvidia.com/device-plugin.config': plan.sharing.deviceConfigName!,
            },
            allocatable: {
              [plan.resourceName]: String(plan.sharing.slicesPerGpu),
            },
            ageMinutes: 90,
            now,
          }),
        ],
        pods: [
          pendingPod('ml', 'chat-6d5f7c9b8-q7w2e', { ageMinutes: 25, now }),
        ],
        events: [
          failedScheduling(
            'ml',
            'chat-6d5f7c9b8-q7w2e',
            `0/1 nodes are available: 1 Insufficient ${plan.resourceName}.`,
            { ageMinutes: 2, now },
          ),
        ],
        // The ConfigMap the cluster runs predates the pool's config.
        configMaps: [
          configMap('gpu-operator', 'nvidia-device-plugin-configs', {
            default: 'version: v1\n',
          }),
        ],
      },
    });
  });

  afterAll(async () => {
    await api?.stop();
    await remote?.cleanup();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  const startBackend = (url: string) =>
    startTestBackend({
      features: [
        gpuPlugin,
        handle.module,
        catalogServiceMock.factory({ entities: [chat] }),
        mockServices.rootConfig.factory({
          data: {
            kubernetes: {
              serviceLocatorMethod: { type: 'multiTenant' },
              clusterLocatorMethods: [
                {
                  type: 'config',
                  clusters: [
                    {
                      name: 'dev',
                      url,
                      authProvider: 'serviceAccount',
                      serviceAccountToken: TOKEN,
                      caData: api.caData,
                    },
                  ],
                },
              ],
            },
            gpu: {
              gitops: {
                repoUrl: remote.url,
                cacheDir: path.join(temp, `cache-${url.split(':').pop()}`),
              },
              clusters: { default: 'dev', profiles: { dev: {} } },
              index: { refresh: '1h' },
              // No Prometheus: drift alone.
              utilization: {
                refresh: '1h',
                clusters: { dev: { timeoutSeconds: 2 } },
              },
            },
          },
        }),
      ],
    });

  /** Refreshes live data until the Kubernetes source has been read once. */
  const allocationAfterRead = async (server: any) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      await handle.scheduler().triggerTask(LIVE_DATA_REFRESH_TASK_ID);
      await new Promise(resolve => setTimeout(resolve, 300));
      const res = await request(server)
        .get('/api/gpu/allocation')
        .query({ entityRef: 'component:default/chat' });
      expect(res.status).toBe(200);
      const status = res.body.live?.find((s: any) => s.source === 'kubernetes');
      const read =
        status &&
        status.reason !== 'not read yet' &&
        status.reason !== 'the GitOps repository has not been indexed yet' &&
        res.body.allocations.length > 0;
      if (read || Date.now() > deadline) return res.body;
    }
  };

  it('GET /allocation says where the cluster differs from Git for the request', async () => {
    const backend = await startBackend(api.url);
    try {
      const body = await allocationAfterRead(backend.server);
      expect(body.live).toEqual([
        {
          cluster: 'dev',
          source: 'kubernetes',
          available: true,
          at: expect.any(String),
        },
      ]);
      const [allocation] = body.allocations;
      expect(allocation.pool).toBe(plan.pool.name);
      expect(allocation.drift).toEqual([
        {
          kind: 'nodeoverlay-gate-off',
          object: `NodeOverlay/${nodeOverlayName(plan.pool.name, plan.pool.gpuCounts[0])}`,
          message: expect.stringContaining('feature gate is off'),
        },
        {
          kind: 'device-plugin-config-missing',
          object: 'Node/ip-10-0-1-7',
          message: `node ip-10-0-1-7 asks for device-plugin config "${plan.sharing.deviceConfigName}", which the ConfigMap gpu-operator/nvidia-device-plugin-configs does not have (keys: default): its GPUs are not shared as planned`,
        },
        {
          kind: 'pods-pending',
          object: 'Pod/ml/chat-6d5f7c9b8-q7w2e',
          message: '1 pod Pending for up to 25 min',
          events: [
            `FailedScheduling: 0/1 nodes are available: 1 Insufficient ${plan.resourceName}.`,
          ],
        },
      ]);
      expect(JSON.stringify(body)).not.toContain(TOKEN);
    } finally {
      await backend.stop();
    }
  });

  it('with the API unreachable, serves intent with the reason', async () => {
    const backend = await startBackend('https://127.0.0.1:9');
    try {
      const body = await allocationAfterRead(backend.server);
      expect(body.live).toEqual([
        {
          cluster: 'dev',
          source: 'kubernetes',
          available: false,
          reason:
            'Kubernetes API at 127.0.0.1:9 cannot be reached (ECONNREFUSED)',
        },
      ]);
      expect(body.allocations).toHaveLength(1);
      expect(body.allocations[0].drift).toBeUndefined();
      expect(body.allocations[0].physicalGpus).toBeGreaterThan(0);
    } finally {
      await backend.stop();
    }
  });
});
