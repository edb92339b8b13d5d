import { promises as fs } from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import {
  mockCredentials,
  mockErrorHandler,
  mockServices,
} from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import {
  builtinCatalog,
  findModel,
  parseGpuRequestYaml,
  resolveClusterProfile,
  type ClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { ConfigReader } from '@backstage/config';
import { readGpuPolicy, type GpuPolicy } from '@gpu-gitops/plugin-gpu-node';
import { AllocationQueries } from '../allocation/AllocationQueries';
import {
  DirectorySource,
  fixtureDirectory,
} from '../__testUtils__/directorySource';
import {
  FIXTURE_REPO,
  PLATFORM_FIXTURE_REPO,
} from '../__testUtils__/fixtureRemote';
import { permissionedCatalog } from '../__testUtils__/permissionedCatalog';
import { RepoIndex } from '../repoIndex/RepoIndex';
import { createRouter, type RouterOptions } from './router';

const clusters = [
  resolveClusterProfile({ name: 'dev' }),
  resolveClusterProfile({ name: 'prod' }),
];

const component = (
  name: string,
  annotations: Record<string, string> = {},
  namespace = 'default',
): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name, namespace, annotations },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
});

const entities = [
  component('chat-assistant', {
    'backstage.io/kubernetes-id': 'chat-assistant',
  }),
  // No annotation: matched by its name.
  component('chat-assistant', {}, 'ml'),
  // Pins another namespace: the ml workload is not its.
  component('chat-assistant-staging', {
    'backstage.io/kubernetes-id': 'chat-assistant',
    'backstage.io/kubernetes-namespace': 'staging',
  }),
];

const MALLORY = 'user:default/mallory';
const catalog = permissionedCatalog(entities, {
  [MALLORY]: [
    'component:default/chat-assistant',
    'component:ml/chat-assistant',
  ],
});

async function appFor(
  files: Record<string, string | null> = {},
  options: {
    policy?: GpuPolicy;
    clusters?: ClusterProfile[];
    live?: RouterOptions['live'];
    drift?: RouterOptions['drift'];
    /** The repository to copy (the default fixture's by default). */
    fixture?: string;
    catalog?: RouterOptions['catalog'];
    auth?: RouterOptions['auth'];
  } = {},
) {
  const profiles = options.clusters ?? clusters;
  const defaultCluster = profiles[0].name;
  const dir = await fixtureDirectory(files, options.fixture);
  const index = new RepoIndex(
    { clusters: profiles, defaultCluster, catalog: builtinCatalog },
    new DirectorySource(dir),
  );
  await index.refresh();
  const router = await createRouter({
    httpAuth: mockServices.httpAuth(),
    catalog: options.catalog ?? catalog,
    ...(options.auth ? { auth: options.auth } : {}),
    snapshot: () => index.snapshot(),
    queries: new AllocationQueries(builtinCatalog),
    gpuCatalog: builtinCatalog,
    clusters: profiles,
    defaultCluster,
    policy: options.policy,
    ...(options.live ? { live: options.live } : {}),
    ...(options.drift ? { drift: options.drift } : {}),
  });
  const app = express().use(router).use(mockErrorHandler());
  return { app, dir, index };
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(d => fs.rm(d, { recursive: true, force: true })));
});

async function fixtureRequest() {
  return parseGpuRequestYaml(
    await fs.readFile(
      path.join(FIXTURE_REPO, 'requests/ml/chat-assistant.yaml'),
      'utf8',
    ),
  );
}

describe('gpu router', () => {
  let app: express.Express;
  beforeAll(async () => {
    const built = await appFor();
    dirs.push(built.dir);
    app = built.app;
  });

  it('serves /health without credentials', async () => {
    const res = await request(app)
      .get('/health')
      .set('Authorization', mockCredentials.none.header());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', revision: expect.any(String) });
  });

  it('refuses the API without credentials', async () => {
    for (const route of ['/allocation?entityRef=chat-assistant', '/pools']) {
      const res = await request(app)
        .get(route)
        .set('Authorization', mockCredentials.none.header());
      expect(res.status).toBe(401);
    }
    const res = await request(app)
      .post('/plan')
      .set('Authorization', mockCredentials.none.header())
      .send({});
    expect(res.status).toBe(401);
  });

  it('returns the numbers of the request on its pool, as POST /plan gives them', async () => {
    const res = await request(app)
      .get('/allocation')
      .query({ entityRef: 'component:default/chat-assistant' });
    expect(res.status).toBe(200);
    // The stored request planned again against the repository: it stays on
    // its pool, and the preview's numbers are the card's.
    const preview = await request(app)
      .post('/plan')
      .send(await fixtureRequest());
    expect(preview.status).toBe(200);
    const planned = preview.body.plan;
    expect(planned.pool).toEqual(
      expect.objectContaining({ name: 'gpu-t4-ts4', reused: true }),
    );
    expect(planned.cost.marginalUsdPerMonth).toBe(0);
    // One g4dn.xlarge ($383.98/month) of 4 slices: 2 are the request's.
    const poolCost = {
      name: 'gpu-t4-ts4',
      nodes: 1,
      instanceType: 'g4dn.xlarge',
      nodeUsdPerMonth: 383.98,
      usdPerMonth: 383.98,
      idleUsdPerMonth: 191.99,
      capacityUnits: 4,
      allocatedUnits: 2,
      idleUnits: 2,
    };
    expect(planned.cost.pool).toEqual({
      ...poolCost,
      nodesBefore: 1,
      shares: [{ request: 'ml/chat-assistant', units: 2, usdPerMonth: 191.99 }],
    });
    expect(res.body).toEqual({
      entityRef: 'component:default/chat-assistant',
      revision: expect.any(String),
      allocations: [
        {
          id: 'ml/chat-assistant',
          namespace: 'ml',
          name: 'chat-assistant',
          entityRef: 'component:default/chat-assistant',
          owner: 'group:default/ml-platform',
          cluster: 'dev',
          pool: 'gpu-t4-ts4',
          gpuModel: 't4',
          sharingMode: 'time-slicing',
          resourceName: 'nvidia.com/gpu.shared',
          replicas: 2,
          perReplica: 1,
          gpuSharePerReplica: planned.perReplica.gpuShare,
          vramMiBPerReplica: planned.perReplica.memoryMiB,
          vramGuaranteed: false,
          physicalGpus: planned.physicalGpus,
          // The card's title, in the words of the pull request's title.
          title: '0.5 GPU — 2 time-slices of a T4',
          usdPerMonth: planned.cost.usdPerMonth,
          unitsHeld: 2,
          poolCost,
          sources: [
            'apps/ml/chat-assistant/deployment.yaml',
            'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
            'requests/ml/chat-assistant.yaml',
          ],
          // What the developer asked for: the stored request, as filed.
          requestSpec: (await fixtureRequest()).spec,
        },
      ],
      totals: { physicalGpus: 0.5, usdPerMonth: 191.99 },
    });
    expect(planned.perReplica.memoryMiB).toBe(
      Math.floor(findModel(builtinCatalog, 't4')!.memoryMiB / 4),
    );
  });

  it('maps an entity without annotation by its name, and honours a pinned namespace', async () => {
    const byName = await request(app)
      .get('/allocation')
      .query({ entityRef: 'component:ml/chat-assistant' });
    expect(byName.body.allocations.map((a: { id: string }) => a.id)).toEqual([
      'ml/chat-assistant',
    ]);
    const pinned = await request(app)
      .get('/allocation')
      .query({ entityRef: 'component:default/chat-assistant-staging' });
    expect(pinned.status).toBe(200);
    expect(pinned.body.allocations).toEqual([]);
    expect(pinned.body.totals).toEqual({ physicalGpus: 0, usdPerMonth: 0 });
  });

  it('answers 404 for an entity the caller may not read, 400 for a bad ref', async () => {
    const hidden = await request(app)
      .get('/allocation')
      .query({ entityRef: 'component:default/chat-assistant' })
      .set('Authorization', mockCredentials.user.header(MALLORY));
    expect(hidden.status).toBe(404);
    const bad = await request(app)
      .get('/allocation')
      .query({ entityRef: 'component:default/' });
    expect(bad.status).toBe(400);
    const missing = await request(app).get('/allocation');
    expect(missing.status).toBe(400);
  });

  it("shows an entity's measured use, drift and right-size only to callers who may read it", async () => {
    // Both live sources answer for every allocation: what decides is the
    // entity check, as for the allocation itself.
    const measured = {
      attribution: 'per-pod' as const,
      window: '7d',
      sources: 1,
      vramPeakMiB: 512,
      vramP95MiB: 512,
      vramAllottedMiB: 15360,
      active: 0.02,
      status: 'idle' as const,
      reason: 'engine active 2.0 % on average over 7d',
    };
    const finding = {
      kind: 'pods-pending' as const,
      object: 'Pod/ml/chat-assistant-7d9f8b6c5d-x2x7q',
      message: '1 pod Pending for up to 25 min',
    };
    const status = (source: 'prometheus' | 'kubernetes') => ({
      cluster: 'dev',
      source,
      available: true,
      at: '2026-11-27T10:00:00.000Z',
    });
    const live = await appFor(
      {},
      {
        live: {
          utilizationOf: () => measured,
          poolUtilizationOf: () => undefined,
          statusOf: () => [status('prometheus')],
        },
        drift: {
          driftOf: () => [finding],
          poolDriftOf: () => [],
          notInGitOf: () => [],
          statusOf: () => [status('kubernetes')],
        },
      },
    );
    dirs.push(live.dir);
    const ref = { entityRef: 'component:default/chat-assistant' };
    const mine = await request(live.app).get('/allocation').query(ref);
    expect(mine.status).toBe(200);
    expect(mine.body.allocations[0]).toMatchObject({
      utilization: measured,
      drift: [finding],
    });
    expect(mine.body.live).toEqual([
      status('prometheus'),
      status('kubernetes'),
    ]);
    expect((await request(live.app).get('/right-size').query(ref)).status).toBe(
      200,
    );
    for (const route of ['/allocation', '/right-size']) {
      const hidden = await request(live.app)
        .get(route)
        .query(ref)
        .set('Authorization', mockCredentials.user.header(MALLORY));
      expect({ route, status: hidden.status }).toEqual({ route, status: 404 });
      expect(JSON.stringify(hidden.body)).not.toContain('Pending');
    }
  });

  it('lists pools with capacity vs allocation and only readable consumers', async () => {
    const res = await request(app).get('/pools');
    expect(res.status).toBe(200);
    expect(res.body.pools).toEqual([
      {
        name: 'gpu-t4-ts4',
        cluster: 'dev',
        gpuModel: 't4',
        sharingMode: 'time-slicing',
        resourceName: 'nvidia.com/gpu.shared',
        instanceTypes: ['g4dn.xlarge', 'g4dn.2xlarge'],
        unitsPerGpu: 4,
        // NodePool limit: 2 physical GPUs x 4 slices.
        capacity: 8,
        allocated: 2,
        cost: expect.objectContaining({
          nodes: 1,
          usdPerMonth: 383.98,
          idleUsdPerMonth: 191.99,
        }),
        // Held against what runs (the 4 slices of its 1 node, as the cost
        // counts them), the limit named apart: one figure for bar and text.
        usage: {
          allocated: 2,
          onNodes: 4,
          free: 2,
          limit: 8,
          fraction: 0.5,
          overLimit: false,
          text: '2 of 4 nvidia.com/gpu.shared held on 1 node, 2 free; the limit allows 8',
        },
        consumers: [
          {
            id: 'ml/chat-assistant',
            entityRef: 'component:default/chat-assistant',
            // The entity's owner, for the GPU page's teams.
            owner: 'group:default/ml-platform',
            units: 2,
            usdPerMonth: 191.99,
          },
        ],
      },
    ]);

    const mallory = await request(app)
      .get('/pools/gpu-t4-ts4')
      .set('Authorization', mockCredentials.user.header(MALLORY));
    expect(mallory.status).toBe(200);
    // The pool's totals stay; who uses it is hidden, what they pay is not.
    expect(mallory.body).toEqual(
      expect.objectContaining({
        allocated: 2,
        capacity: 8,
        consumers: [],
        otherConsumers: { count: 1, units: 2, usdPerMonth: 191.99 },
      }),
    );
    expect((await request(app).get('/pools/nope')).status).toBe(404);
    expect(
      (await request(app).get('/pools').query({ cluster: 'nope' })).status,
    ).toBe(400);
    expect(
      (await request(app).get('/pools').query({ cluster: 'prod' })).body,
    ).toEqual({ pools: [], revision: expect.any(String) });
    expect(
      (await request(app).get('/pools').query({ cluster: 'dev' })).body,
    ).toEqual(res.body);
  });

  it('previews a plan against the repository (reusing the existing pool)', async () => {
    const stored = await fixtureRequest();
    const body = {
      ...stored,
      metadata: { name: 'chat-assistant-2', namespace: 'ml' },
    };
    const res = await request(app).post('/plan').send(body);
    expect(res.status).toBe(200);
    expect(res.body.plan.pool).toEqual(
      expect.objectContaining({ name: 'gpu-t4-ts4', reused: true }),
    );
    expect(res.body.plan.perReplica.gpuShare).toBe(0.25);
    expect(res.body.summary).toContain('ml/chat-assistant-2');
  });

  it('refuses an invalid request with the field path and rule of each issue', async () => {
    const stored = await fixtureRequest();
    const res = await request(app)
      .post('/plan')
      .send({
        ...stored,
        metadata: { name: 'Not_A_Name', namespace: 'ml' },
        spec: { ...stored.spec, gpu: { ...stored.spec.gpu, replicas: 0 } },
      });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('InputError');
    const paths = res.body.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(['metadata.name', 'spec.gpu.replicas']),
    );
    for (const issue of res.body.issues) {
      expect(issue.rule).toEqual(expect.any(String));
    }
    // The form's words: the field's label, never the path or a pattern.
    expect(res.body.issues).toContainEqual({
      path: 'spec.gpu.replicas',
      rule: 'min',
      message: 'must be at least 1',
      field: 'Replicas',
    });
    expect(res.body.error.message).toContain('Replicas must be at least 1');
    expect(res.body.error.message).not.toContain('spec.gpu');
  });
});

describe('gpu router: the owner policy and quota the actions apply', () => {
  /** The demo's policy (app-config.yaml): 8 GPUs per team and cluster, no DRA. */
  const policy = readGpuPolicy(
    new ConfigReader({
      defaults: {
        allowedSharingModes: ['exclusive', 'time-slicing', 'mps', 'mig'],
        gpuQuota: 8,
      },
      groups: [{ owner: 'group:default/research', gpuQuota: 16 }],
    }),
  );
  const demoClusters = [
    resolveClusterProfile({ name: 'dev', region: 'us-east-1' }),
    resolveClusterProfile({
      name: 'inference',
      migStrategy: 'single',
      region: 'eu-west-1',
    }),
  ];
  let app: express.Express;
  beforeAll(async () => {
    const built = await appFor({}, { policy, clusters: demoClusters });
    dirs.push(built.dir);
    app = built.app;
  });

  /** A new workload of ml-platform, which holds 0.5 GPU on dev (chat-assistant: 2 of 4 T4 slices). */
  const newRequest = (
    gpu: Partial<GpuRequest['spec']['gpu']>,
    owner = 'group:default/ml-platform',
  ) => ({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: 'svc', namespace: 'ml' },
    spec: {
      owner,
      gpu: {
        model: 't4',
        sharing: 'exclusive',
        replicas: 1,
        vramGiB: 8,
        ...gpu,
      },
      workload: { image: 'ghcr.io/acme/svc:1.0.0' },
    },
  });

  it('refuses a request over the team quota, with the quota use, as the actions do', async () => {
    const res = await request(app)
      .post('/plan')
      .send(newRequest({ replicas: 8 }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        name: 'InputError',
        message:
          'Replicas: GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU: quota 8, already used 0.5, this request needs 8 (physical-GPU equivalents)',
      },
      issues: [
        {
          path: 'spec.gpu.replicas',
          rule: 'policy-quota',
          field: 'Replicas',
          message:
            'GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU: quota 8, already used 0.5, this request needs 8 (physical-GPU equivalents)',
        },
      ],
      quota: {
        owner: 'group:default/ml-platform',
        cluster: 'dev',
        used: 0.5,
        requested: 8,
        quota: 8,
      },
    });
  });

  it('previews a request within the quota with the quota use', async () => {
    const res = await request(app)
      .post('/plan')
      .send(newRequest({ replicas: 7 }));
    expect(res.status).toBe(200);
    expect(res.body.quota).toEqual({
      owner: 'group:default/ml-platform',
      cluster: 'dev',
      used: 0.5,
      requested: 7,
      quota: 8,
    });
    // Another team's quota is its own.
    const research = await request(app)
      .post('/plan')
      .send(newRequest({ replicas: 12 }, 'group:default/research'));
    expect(research.status).toBe(200);
    expect(research.body.quota).toMatchObject({ used: 0, quota: 16 });
  });

  it('refuses a sharing mode the team policy forbids', async () => {
    const res = await request(app)
      .post('/plan')
      .send(newRequest({ sharing: 'dra', vramGiB: 8 }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      {
        path: 'spec.gpu.sharing',
        rule: 'policy-sharing',
        field: 'Sharing mode',
        message:
          'Sharing mode dra is not allowed for group:default/ml-platform; allowed: exclusive, time-slicing, mps, mig',
      },
    ]);
  });

  it('refuses MPS on a cluster whose device plugin runs the mixed MIG strategy, plans it where it runs', async () => {
    const mps = newRequest({ sharing: 'mps', vramGiB: 4, replicas: 2 });
    const dev = await request(app).post('/plan').send(mps);
    expect(dev.status).toBe(400);
    expect(dev.body.issues[0]).toMatchObject({
      rule: 'mps-mig-strategy',
      field: 'Sharing mode',
    });
    const inference = await request(app)
      .post('/plan')
      .query({ cluster: 'inference' })
      .send(mps);
    expect(inference.status).toBe(200);
    expect(inference.body.plan.sharing.mode).toBe('mps');
  });

  it('serves the clusters with provider, region and what each can run, and for an owner what its policy forbids', async () => {
    const res = await request(app).get('/clusters');
    expect(res.status).toBe(200);
    expect(res.body.defaultCluster).toBe('dev');
    const [dev, inference] = res.body.clusters;
    expect([dev.label, inference.label]).toEqual([
      'dev — AWS (Karpenter), us-east-1',
      'inference — AWS (Karpenter), eu-west-1',
    ]);
    const unavailable = (cluster: any) =>
      cluster.sharingModes
        .filter((m: any) => m.unavailable)
        .map((m: any) => `${m.mode}: ${m.unavailable.rule}`);
    expect(unavailable(dev)).toEqual(['mps: mps-mig-strategy']);
    expect(unavailable(inference)).toEqual([]);

    const forTeam = await request(app)
      .get('/clusters')
      .query({ owner: 'ml-platform' });
    expect(unavailable(forTeam.body.clusters[0])).toEqual([
      'mps: mps-mig-strategy',
      'dra: policy-sharing',
    ]);
  });

  it('serves a team’s quota use on a cluster', async () => {
    const res = await request(app)
      .get('/quota')
      .query({ owner: 'ml-platform', cluster: 'dev' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      owner: 'group:default/ml-platform',
      cluster: 'dev',
      used: 0.5,
      requested: 0,
      quota: 8,
    });
    // Re-running chat-assistant's own request does not count it.
    const rerun = await request(app).get('/quota').query({
      owner: 'ml-platform',
      namespace: 'ml',
      name: 'chat-assistant',
    });
    expect(rerun.body.used).toBe(0);
    expect((await request(app).get('/quota')).status).toBe(400);
  });
});

describe('gpu router: a cluster without GPU setup', () => {
  it('refuses a request for it as the actions do, until its GPU kustomization is merged', async () => {
    const profiles = [
      resolveClusterProfile({ name: 'dev' }),
      resolveClusterProfile({ name: 'prod' }),
    ];
    const built = await appFor({}, { clusters: profiles });
    dirs.push(built.dir);
    const gpuRequest = await fixtureRequest();
    const body = {
      ...gpuRequest,
      metadata: { name: 'svc', namespace: 'ml' },
    };

    const prod = await request(built.app)
      .post('/plan')
      .query({ cluster: 'prod' })
      .send(body);
    expect(prod.status).toBe(400);
    expect(prod.body.issues).toEqual([
      expect.objectContaining({
        path: 'spec.cluster',
        rule: 'cluster-not-bootstrapped',
      }),
    ]);
    expect(prod.body.issues[0].message).toContain(
      'clusters/prod/gpu/kustomization.yaml is missing',
    );
    const dev = await request(built.app).post('/plan').send(body);
    expect(dev.status).toBe(200);

    // The bootstrap is merged: the next refresh of the index knows it.
    await fs.mkdir(path.join(built.dir, 'clusters/prod/gpu'), {
      recursive: true,
    });
    await fs.writeFile(
      path.join(built.dir, 'clusters/prod/gpu/kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
    );
    await built.index.refresh();
    const bootstrapped = await request(built.app)
      .post('/plan')
      .query({ cluster: 'prod' })
      .send(body);
    expect(bootstrapped.status).toBe(200);
  });
});

describe('gpu router: pools of one component, requests the catalog does not hold', () => {
  it("answers a component's tab with its own pools only", async () => {
    const built = await appFor();
    dirs.push(built.dir);
    const mine = await request(built.app)
      .get('/pools')
      .query({ entityRef: 'component:default/chat-assistant' });
    expect(mine.status).toBe(200);
    expect(mine.body.pools.map((p: { name: string }) => p.name)).toEqual([
      'gpu-t4-ts4',
    ]);
    // A component without GPUs: no pool, not every pool of every cluster.
    const none = await request(built.app)
      .get('/pools')
      .query({ entityRef: 'component:default/chat-assistant-staging' });
    expect(none.status).toBe(200);
    expect(none.body.pools).toEqual([]);
  });

  it("names a request whose component the catalog does not hold, with its record's owner, so its team's cost counts it", async () => {
    const built = await appFor(
      {},
      {
        catalog: permissionedCatalog([], {}),
        auth: mockServices.auth(),
      },
    );
    dirs.push(built.dir);
    const res = await request(built.app).get('/pools');
    expect(res.status).toBe(200);
    const [pool] = res.body.pools;
    expect(pool.consumers).toEqual([
      {
        id: 'ml/chat-assistant',
        inCatalog: false,
        owner: 'group:default/ml-platform',
        units: 2,
        usdPerMonth: 191.99,
      },
    ]);
    expect(pool.otherConsumers).toBeUndefined();
  });
});

describe('gpu router without a stored request', () => {
  it('derives the numbers from the workload and its pool', async () => {
    const { app, dir } = await appFor({
      'requests/ml/chat-assistant.yaml': null,
    });
    dirs.push(dir);
    const res = await request(app)
      .get('/allocation')
      .query({ entityRef: 'component:default/chat-assistant' });
    expect(res.status).toBe(200);
    const [allocation] = res.body.allocations;
    const t4 = findModel(builtinCatalog, 't4')!;
    expect(allocation).toEqual(
      expect.objectContaining({
        sharingMode: 'time-slicing',
        gpuSharePerReplica: 0.25,
        vramMiBPerReplica: Math.floor(t4.memoryMiB / 4),
        vramGuaranteed: false,
        physicalGpus: 0.5,
        // Its 2 slices of the pool's one g4dn.xlarge ($383.98/month, 4 slices).
        usdPerMonth: 191.99,
        unitsHeld: 2,
        sources: [
          'apps/ml/chat-assistant/deployment.yaml',
          'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
        ],
      }),
    );
    expect(allocation.owner).toBeUndefined();
  });
});

/** The router over the platform fixture (with `changes`), for cluster prod-eu. */
async function platformApp(changes: Record<string, string> = {}) {
  const { app, dir } = await appFor(changes, {
    clusters: [resolveClusterProfile({ name: 'prod-eu' })],
    fixture: PLATFORM_FIXTURE_REPO,
  });
  dirs.push(dir);
  return app;
}

/** A request for GPUs on an existing workload of the platform fixture. */
const existingRequest = (
  existing: Record<string, string>,
  namespace = 'ml',
  replicas = 2,
) => ({
  apiVersion: 'gpu.backstage.io/v1alpha1',
  kind: 'GpuRequest',
  metadata: { name: existing.name, namespace },
  spec: {
    owner: 'group:default/ml-platform',
    gpu: { model: 'l4', sharing: 'exclusive', replicas, vramGiB: 16 },
    workload: { existing },
    capacityTypes: ['on-demand'],
  },
});

describe('gpu router on a platform repository: existing workloads', () => {
  let app: express.Express;

  beforeAll(async () => {
    app = await platformApp();
  });

  it('refuses /workloads without credentials', async () => {
    const res = await request(app)
      .get('/workloads')
      .query({ namespace: 'ml', name: 'recommender' })
      .set('Authorization', mockCredentials.none.header());
    expect(res.status).toBe(401);
  });

  it('lists the workloads of a name in a namespace with their containers and replicas, for users and services', async () => {
    for (const credentials of [
      mockCredentials.user.header(),
      mockCredentials.service.header(),
    ]) {
      const res = await request(app)
        .get('/workloads')
        .query({ namespace: 'ml', name: 'recommender' })
        .set('Authorization', credentials);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        workloads: [
          {
            kind: 'Deployment',
            name: 'recommender',
            namespace: 'ml',
            path: 'apps/ml/recommender/base/deployment.yaml',
            containers: ['api', 'metrics-exporter'],
            replicas: 3,
            overlay: 'apps/ml/recommender/overlays/prod-eu',
          },
        ],
        kinds: ['Deployment', 'StatefulSet', 'Job', 'CronJob'],
        revision: expect.any(String),
      });
    }
    const job = await request(app)
      .get('/workloads')
      .query({ namespace: 'batch', name: 'train-nightly', kind: 'Job' });
    expect(job.body.workloads).toEqual([
      expect.objectContaining({ containers: ['trainer'], replicas: 2 }),
    ]);
    // Without a namespace: every namespace that runs it.
    const everywhere = await request(app)
      .get('/workloads')
      .query({ name: 'recommender' });
    expect(
      everywhere.body.workloads.map((w: { namespace: string }) => w.namespace),
    ).toEqual(['ml', 'ml-staging']);
  });

  it('answers an empty list for a workload the repository does not hold, or not of that kind', async () => {
    for (const query of [
      { namespace: 'ml', name: 'nope' },
      { namespace: 'web', name: 'recommender' },
      { namespace: 'ml', name: 'vector-db', kind: 'Deployment' },
    ]) {
      const res = await request(app).get('/workloads').query(query);
      expect(res.status).toBe(200);
      expect(res.body.workloads).toEqual([]);
    }
    expect((await request(app).get('/workloads')).status).toBe(400);
    expect(
      (
        await request(app)
          .get('/workloads')
          .query({ name: 'recommender', kind: 'DaemonSet' })
      ).status,
    ).toBe(400);
  });

  it('refuses to preview an existing workload with several containers and none named, like the actions', async () => {
    const res = await request(app)
      .post('/plan')
      .send(existingRequest({ kind: 'StatefulSet', name: 'vector-db' }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      {
        path: 'spec.workload.existing.container',
        rule: 'container-required',
        field: 'Container',
        message:
          'StatefulSet "vector-db" has 2 containers (db, backup-agent): name the one that gets the GPU',
      },
    ]);
    const unknown = await request(app)
      .post('/plan')
      .send(
        existingRequest({
          kind: 'Deployment',
          name: 'recommender',
          container: 'web',
        }),
      );
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues[0]).toEqual(
      expect.objectContaining({
        path: 'spec.workload.existing.container',
        rule: 'container-not-found',
      }),
    );
  });

  it('previews an existing workload with its replicas now and the GPU container', async () => {
    const res = await request(app)
      .post('/plan')
      .send(
        existingRequest({
          kind: 'Deployment',
          name: 'recommender',
          container: 'api',
        }),
      );
    expect(res.status).toBe(200);
    expect(res.body.existing).toEqual({
      kind: 'Deployment',
      name: 'recommender',
      namespace: 'ml',
      path: 'apps/ml/recommender/base/deployment.yaml',
      containers: ['api', 'metrics-exporter'],
      replicas: 3,
      overlay: 'apps/ml/recommender/overlays/prod-eu',
      gpuContainer: 'api',
    });
    expect(res.body.summary).toContain(
      '- Existing Deployment recommender: 3 replicas now → 2 requested (containers: api, metrics-exporter; GPU to api)',
    );

    // One container: it gets the GPU without being named.
    const job = await request(app)
      .post('/plan')
      .send(
        existingRequest({ kind: 'Job', name: 'train-nightly' }, 'batch', 2),
      );
    expect(job.status).toBe(200);
    expect(job.body.existing).toEqual(
      expect.objectContaining({ replicas: 2, gpuContainer: 'trainer' }),
    );
    expect(job.body.summary).toContain(
      '- Existing Job train-nightly: parallelism 2 now (containers: trainer; GPU to trainer)',
    );
    // The pull request's warning, before it is opened: a Job's pod template
    // cannot change in place. A Deployment's can.
    expect(job.body.plan.warnings).toContainEqual(
      expect.stringMatching(
        /^Job `batch\/train-nightly` cannot take this change of its pod template in place: .*After merging, delete the Job so the applier creates it again\./,
      ),
    );
    expect(res.body.plan.warnings).not.toContainEqual(
      expect.stringContaining('pod template'),
    );

    // A GPU container behind a proxy (second of three): the preview says it
    // fits, and the task now accepts it too (test/src/cli/platformRepo.test.ts).
    const proxied = await request(app)
      .post('/plan')
      .send(
        existingRequest(
          { kind: 'Deployment', name: 'llm-chat', container: 'vllm' },
          'ml',
          1,
        ),
      );
    expect(proxied.status).toBe(200);
    expect(proxied.body.existing).toEqual(
      expect.objectContaining({
        containers: ['oauth-proxy', 'vllm', 'log-shipper'],
        gpuContainer: 'vllm',
      }),
    );

    // Not in the repository's workload folders: planned without it.
    const elsewhere = await request(app)
      .post('/plan')
      .send(existingRequest({ kind: 'Deployment', name: 'nope' }));
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.existing).toBeUndefined();
    expect(elsewhere.body.summary).not.toContain('Existing');
  });
});

describe('gpu router: what the GPU nodes run (the GPU Operator without its MIG manager)', () => {
  const VALUES = 'clusters/dev/gpu-operator/values.yaml';
  const release = [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    '  name: gpu-operator',
    '  namespace: gpu-operator',
    'spec:',
    '  chart:',
    '    spec:',
    '      chart: gpu-operator',
    '      sourceRef: {kind: HelmRepository, name: nvidia}',
    '  values:',
    '    migManager:',
    '      enabled: false',
    '',
  ].join('\n');
  const migRequest = {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: 'tagger', namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 'a100-40gb', sharing: 'mig', replicas: 1, vramGiB: 8 },
      workload: { image: 'ghcr.io/acme/tagger:1.0.0' },
    },
  };
  const migOf = async (app: express.Express) =>
    (await request(app).get('/clusters')).body.clusters
      .find((c: any) => c.name === 'dev')
      .sharingModes.find((m: any) => m.mode === 'mig');

  it('the form and POST /plan refuse MIG with the reason the actions give, and offer it again once a commit turns it back on', async () => {
    const built = await appFor({ [VALUES]: release });
    dirs.push(built.dir);
    const reason =
      "cluster dev cannot run MIG: its GPU Operator runs no MIG manager (`migManager.enabled: false` in `spec.values` of HelmRelease `gpu-operator/gpu-operator` in `clusters/dev/gpu-operator/values.yaml`), so nothing partitions the GPUs of a MIG pool's nodes";

    const mig = await migOf(built.app);
    expect(mig.unavailable.rule).toBe('mig-manager-disabled');
    expect(mig.unavailable.reason).toContain(reason);
    const planned = await request(built.app).post('/plan').send(migRequest);
    expect(planned.status).toBe(400);
    expect(planned.body.issues).toEqual([
      expect.objectContaining({
        rule: 'mig-manager-disabled',
        message: mig.unavailable.reason,
      }),
    ]);
    // prod's folder does not hold the release: MIG stays offered there.
    const prod = (await request(built.app).get('/clusters')).body.clusters
      .find((c: any) => c.name === 'prod')
      .sharingModes.find((m: any) => m.mode === 'mig');
    expect(prod.unavailable).toBeUndefined();

    await fs.writeFile(
      path.join(built.dir, VALUES),
      // On again, reading the ConfigMap the product writes MIG layouts into.
      release.replace(
        'enabled: false',
        'enabled: true\n      config: {name: custom-mig-parted-config}',
      ),
    );
    await built.index.refresh();
    expect((await migOf(built.app)).unavailable).toBeUndefined();
    const accepted = await request(built.app).post('/plan').send(migRequest);
    expect(accepted.status).toBe(200);
    expect(accepted.body.plan.sharing.mode).toBe('mig');
  });
});

describe('POST /plan on an existing workload with selectors its new pool never satisfies', () => {
  it('lists each selector the patch takes out, in the pull request’s words, and keeps the others', async () => {
    const app = await platformApp({
      // The team's overlay pins a v1alpha5 provisioner and its own label.
      'apps/ml/recommender/overlays/prod-eu/replicas.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: recommender
spec:
  replicas: 3
  template:
    spec:
      nodeSelector:
        intent: gpu-workloads
        kubernetes.io/os: linux
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - key: karpenter.sh/provisioner-name
                    operator: In
                    values: [gpu]
`,
    });
    const res = await request(app)
      .post('/plan')
      .send(
        existingRequest({
          kind: 'Deployment',
          name: 'recommender',
          container: 'api',
        }),
      );
    expect(res.status).toBe(200);
    const removed = (res.body.plan.warnings as string[]).filter(w =>
      w.startsWith("The workload's node"),
    );
    expect(removed).toEqual([
      expect.stringMatching(
        /^The workload's nodeSelector `intent: gpu-workloads` is removed for this request: .*; a release puts it back\.$/,
      ),
      expect.stringMatching(
        /^The workload's nodeAffinity `karpenter.sh\/provisioner-name In \[gpu\]` is removed for this request: /,
      ),
    ]);
    for (const warning of removed) {
      expect(res.body.summary).toContain(`- ${warning}`);
    }
  });
});
