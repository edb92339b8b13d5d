import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
  type GpuRequest,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import {
  createFixtureRemote,
  type FixtureRemote,
} from './__testUtils__/fixtureRemote';
import { schedulerHandle } from './__testUtils__/schedulerHandle';
import { gpuPlugin, INDEX_REFRESH_TASK_ID } from './plugin';

jest.setTimeout(120_000);

// MPS needs the single MIG strategy (the device plugin refuses MPS with mixed).
const cluster = resolveClusterProfile({ name: 'dev', migStrategy: 'single' });

function gpuRequest(name: string, gpu: Partial<GpuRequest['spec']['gpu']>) {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 2,
        vramGiB: 4,
        ...gpu,
      },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });
}

const component = (name: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name,
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': name },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
});

describe('gpu backend plugin (real GitOps repository, published requests)', () => {
  let remote: FixtureRemote;
  let temp: string;
  const handle = schedulerHandle();
  const plans = new Map<string, { plan: Plan; body: string }>();

  /** What publishing does, then the merge of its pull request. */
  async function publishAndMerge(gpuReq: GpuRequest) {
    const result = await publishGpuRequest({
      request: gpuReq,
      cluster,
      catalog: builtinCatalog,
      repoUrl: remote.url,
      forge: 'local',
      cacheDir: path.join(temp, 'publisher-cache'),
    });
    plans.set(gpuReq.metadata.name, { plan: result.plan, body: result.body });
    return remote.merge(result.branch);
  }

  beforeAll(async () => {
    remote = await createFixtureRemote();
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-plugin-'));
    await publishAndMerge(
      gpuRequest('summarizer', {
        sharing: 'time-slicing',
        replicas: 3,
        slicesPerGpu: 4,
      }),
    );
    await publishAndMerge(
      gpuRequest('embedder', { model: 'l4', sharing: 'mps', vramGiB: 5 }),
    );
  });

  afterAll(async () => {
    await remote?.cleanup();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  async function startBackend() {
    return startTestBackend({
      features: [
        gpuPlugin,
        handle.module,
        catalogServiceMock.factory({
          entities: ['summarizer', 'embedder', 'tagger'].map(component),
        }),
        mockServices.rootConfig.factory({
          data: {
            gpu: {
              gitops: {
                repoUrl: remote.url,
                baseBranch: 'main',
                cacheDir: path.join(temp, 'cache'),
              },
              clusters: {
                default: 'dev',
                profiles: { dev: { migStrategy: 'single' }, prod: {} },
              },
              index: { refresh: '1h' },
            },
          },
        }),
      ],
    });
  }

  function expectPlanned(allocation: Record<string, unknown>, name: string) {
    const { plan } = plans.get(name)!;
    expect(allocation).toEqual(
      expect.objectContaining({
        id: `ml/${name}`,
        entityRef: `component:default/${name}`,
        cluster: 'dev',
        pool: plan.pool.name,
        gpuModel: plan.pool.gpuModel,
        sharingMode: plan.sharing.mode,
        resourceName: plan.resourceName,
        replicas: plan.request.spec.gpu.replicas,
        perReplica: plan.resourcePerReplica,
        gpuSharePerReplica: plan.perReplica.gpuShare,
        vramMiBPerReplica: plan.perReplica.memoryMiB,
        vramGuaranteed: plan.perReplica.vramGuaranteed,
        physicalGpus: plan.physicalGpus,
        usdPerMonth: plan.cost.usdPerMonth,
      }),
    );
  }

  it('serves allocations of time-sliced, MPS and (after a refresh) MIG workloads as their pull requests planned them', async () => {
    const backend = await startBackend();
    const { server } = backend;

    // The index was built at start-up (the scheduler runs the task at once).
    const health = await request(server).get('/api/gpu/health');
    expect(health.status).toBe(200);

    const summarizer = await request(server)
      .get('/api/gpu/allocation')
      .query({ entityRef: 'component:default/summarizer' });
    expect(summarizer.status).toBe(200);
    expect(summarizer.body.allocations).toHaveLength(1);
    expectPlanned(summarizer.body.allocations[0], 'summarizer');
    expect(summarizer.body.allocations[0]).toEqual(
      expect.objectContaining({
        sharingMode: 'time-slicing',
        pool: 'gpu-t4-ts4', // reused the fixture's pool
        vramGuaranteed: false,
        owner: 'group:default/ml-platform',
      }),
    );
    // What the developer asked for, as the request record holds it ("Change
    // GPUs"; the publisher records the cluster it planned for).
    expect(summarizer.body.allocations[0].requestSpec).toEqual({
      ...gpuRequest('summarizer', {
        sharing: 'time-slicing',
        replicas: 3,
        slicesPerGpu: 4,
      }).spec,
      cluster: 'dev',
    });
    // The PR body stated the same monthly cost.
    const cost = summarizer.body.allocations[0].usdPerMonth as number;
    expect(plans.get('summarizer')!.body).toContain(
      cost.toLocaleString('en-US', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }),
    );

    const embedder = await request(server)
      .get('/api/gpu/allocation')
      .query({ entityRef: 'component:default/embedder' });
    expect(embedder.status).toBe(200);
    expectPlanned(embedder.body.allocations[0], 'embedder');
    expect(embedder.body.allocations[0]).toEqual(
      expect.objectContaining({ sharingMode: 'mps', vramGuaranteed: true }),
    );

    // A MIG request merged while the backend runs shows up after the next refresh.
    const tagger = await request(server)
      .get('/api/gpu/allocation')
      .query({ entityRef: 'component:default/tagger' });
    expect(tagger.body.allocations).toEqual([]);
    const merged = await publishAndMerge(
      gpuRequest('tagger', { model: 'a100-40gb', sharing: 'mig', vramGiB: 8 }),
    );
    await handle.scheduler().triggerTask(INDEX_REFRESH_TASK_ID);
    const after = await request(server)
      .get('/api/gpu/allocation')
      .query({ entityRef: 'component:default/tagger' });
    expect(after.body.revision).toBe(merged);
    expectPlanned(after.body.allocations[0], 'tagger');
    const taggerPlan = plans.get('tagger')!.plan;
    expect(after.body.allocations[0]).toEqual(
      expect.objectContaining({
        sharingMode: 'mig',
        migProfile: taggerPlan.sharing.migProfile,
        vramGuaranteed: true,
      }),
    );

    // The MIG pool's picture: each instance on its memory slices.
    const pool = await request(server).get(
      `/api/gpu/pools/${taggerPlan.pool.name}`,
    );
    expect(pool.status).toBe(200);
    expect(pool.body.sharingMode).toBe('mig');
    const layout = taggerPlan.sharing.migLayout!;
    const instances = Object.values(layout).reduce((a, b) => a + b, 0);
    expect(pool.body.migLayout.instances).toHaveLength(instances);
    expect(pool.body.unitsPerGpu).toBe(layout[taggerPlan.sharing.migProfile!]);
    expect(pool.body.consumers).toEqual([
      {
        id: 'ml/tagger',
        entityRef: 'component:default/tagger',
        owner: 'group:default/ml-platform',
        units: 2,
        usdPerMonth: taggerPlan.cost.usdPerMonth,
      },
    ]);
    expect(pool.body.allocated).toBe(2);
    // The pool's nodes as the PR body priced them: its share + idle.
    expect(pool.body.cost).toEqual(
      expect.objectContaining({
        nodes: taggerPlan.cost.pool.nodes,
        usdPerMonth: taggerPlan.cost.pool.usdPerMonth,
        idleUsdPerMonth: taggerPlan.cost.pool.idleUsdPerMonth,
      }),
    );

    const unauthenticated = await request(server)
      .get('/api/gpu/pools')
      .set('Authorization', mockCredentials.none.header());
    expect(unauthenticated.status).toBe(401);

    await backend.stop();
  });
});
