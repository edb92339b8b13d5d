/**
 * The index counts a GPU workload on the pool its pods can land on (gpu-common
 * `placedWorkload`, as `readRepoState` does), not on the value of one
 * selector: on the fixture repository plus a hand-written NodePool of EC2 G5
 * machines that a Deployment selects only by its instance family, and a
 * Deployment asking for a family no pool launches.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree, readRepoState } from '@gpu-gitops/plugin-gpu-node';
import { AllocationQueries } from '../allocation/AllocationQueries';
import {
  createFixtureRemote,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { GitFetchSource } from './gitSnapshot';
import { RepoIndex } from './RepoIndex';

jest.setTimeout(60_000);

const G5_POOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-g5
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu }
      requirements:
        - { key: karpenter.k8s.aws/instance-family, operator: In, values: ["g5"] }
        - { key: karpenter.sh/capacity-type, operator: In, values: ["on-demand"] }
      taints:
        - { key: nvidia.com/gpu, effect: NoSchedule }
  limits:
    nvidia.com/gpu: 16
`;

const deployment = (name: string, family: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: ml }
spec:
  replicas: 3
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name}, backstage.io/kubernetes-id: ${name} } }
    spec:
      nodeSelector: { karpenter.k8s.aws/instance-family: ${family} }
      tolerations: [{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }]
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.0
          resources: { limits: { nvidia.com/gpu: 2 } }
`;

describe('the index places workloads where their pods land', () => {
  let remote: FixtureRemote;
  let cacheDir: string;
  let index: RepoIndex;

  beforeAll(async () => {
    remote = await createFixtureRemote({
      'clusters/dev/gpu/nodepools/gpu-g5.yaml': G5_POOL,
      'apps/ml/llm-g5/deployment.yaml': deployment('llm-g5', 'g5'),
      'apps/ml/llm-p5/deployment.yaml': deployment('llm-p5', 'p5'),
    });
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
    index = new RepoIndex(
      {
        clusters: [
          resolveClusterProfile({ name: 'dev' }),
          resolveClusterProfile({ name: 'prod' }),
        ],
        defaultCluster: 'dev',
        catalog: builtinCatalog,
      },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    await index.refresh();
  });

  afterAll(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('counts a workload that selects a pool only by its instance family on that pool, on the GPU page too', () => {
    const snapshot = index.snapshot();
    expect(snapshot.workloads.find(w => w.id === 'ml/llm-g5')).toMatchObject({
      cluster: 'dev',
      pool: 'gpu-g5',
    });
    const g5 = new AllocationQueries(builtinCatalog)
      .pools(snapshot)
      .find(p => p.name === 'gpu-g5');
    // 3 replicas × 2 GPUs, held by the workload.
    expect(g5?.consumers.map(c => [c.id, c.units])).toEqual([['ml/llm-g5', 6]]);
  });

  it('reports a workload whose selector no pool satisfies instead of dropping it', () => {
    const lost = index.snapshot().workloads.find(w => w.id === 'ml/llm-p5');
    expect(lost?.pool).toBeUndefined();
    expect(lost?.placementWarning).toBe(
      'GPU workload ml/llm-p5 (apps/ml/llm-p5/deployment.yaml): its pods can land on no GPU pool of any indexed cluster: nodeSelector karpenter.k8s.aws/instance-family=p5: nodes of NodePool gpu-g5 carry g5 (and the same for gpu-t4-ts4); it is counted on none',
    );
  });
});

/** A team's Deployment that chooses no node: it tolerates every taint and asks for `resource`. */
const anywhere = (name: string, resource: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: ml }
spec:
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      tolerations: [{ operator: Exists }]
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.0
          resources: { limits: { ${resource}: 1 } }
`;

describe('the index lands workloads on the team’s own GPU NodePools too (one model with readRepoState)', () => {
  let remote: FixtureRemote;
  let cacheDir: string;
  let index: RepoIndex;

  beforeAll(async () => {
    remote = await createFixtureRemote({
      // Hand-written GPU NodePools outside the pool folder: the product never counts on them.
      'clusters/prod/karpenter/team-g5.yaml': G5_POOL.replace(
        'name: gpu-g5',
        'name: team-g5',
      ),
      'clusters/dev/karpenter/team-shared.yaml': G5_POOL.replace(
        'name: gpu-g5',
        'name: team-shared',
      ).replace('nvidia.com/gpu: 16', 'nvidia.com/gpu.shared: 16'),
      'apps/ml/whole/deployment.yaml': anywhere('whole', 'nvidia.com/gpu'),
      'apps/ml/sliced/deployment.yaml': anywhere(
        'sliced',
        'nvidia.com/gpu.shared',
      ),
    });
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
    index = new RepoIndex(
      {
        clusters: [
          resolveClusterProfile({ name: 'dev' }),
          resolveClusterProfile({ name: 'prod' }),
        ],
        defaultCluster: 'dev',
        catalog: builtinCatalog,
      },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    await index.refresh();
  });

  afterAll(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('shows a selector-less GPU workload on the team’s NodePool of its cluster, not unserved', () => {
    const whole = index.snapshot().workloads.find(w => w.id === 'ml/whole');
    expect(whole).toMatchObject({
      cluster: 'prod',
      unpooledNodes: ['team-g5'],
    });
    expect(whole?.pool).toBeUndefined();
    expect(whole?.placementWarning).toBeUndefined();
  });

  it('serves the allocation of a workload on the team’s NodePool with that NodePool, marked as not the product’s', () => {
    const snapshot = index.snapshot();
    const whole = snapshot.workloads.find(w => w.id === 'ml/whole')!;
    const allocation = new AllocationQueries(builtinCatalog).allocation(
      snapshot,
      whole,
    );
    expect(allocation).toMatchObject({
      cluster: 'prod',
      pool: 'team-g5',
      teamNodes: ['team-g5'],
      usdPerMonth: 0,
    });
    expect(allocation.poolCost).toBeUndefined();
    // A workload on a product pool is not marked.
    const sliced = snapshot.workloads.find(w => w.id === 'ml/sliced')!;
    expect(
      new AllocationQueries(builtinCatalog).allocation(snapshot, sliced),
    ).not.toHaveProperty('teamNodes');
  });

  it('says a selector-less workload may land on a team’s NodePool beside the product’s pool', () => {
    const sliced = index.snapshot().workloads.find(w => w.id === 'ml/sliced');
    expect(sliced?.pool).toBe('gpu-t4-ts4');
    expect(sliced?.placementWarning).toBe(
      "GPU workload ml/sliced (apps/ml/sliced/deployment.yaml): its pods can land on pool gpu-t4-ts4 of any indexed cluster and on GPU nodes no pool of any indexed cluster describes (team-shared); it is counted on gpu-t4-ts4 (the only pool): select one pool's label to say which",
    );
    // The team's pool is never a pool the product counts on.
    expect(
      index
        .snapshot()
        .clusters.get('dev')
        ?.repoState.pools.map(p => p.name),
    ).toEqual(['gpu-t4-ts4']);
  });
});

/** A Deployment that tolerates every taint, selects `selector` and asks for one `resource`. */
const selecting = (name: string, selector: string, resource: string) =>
  anywhere(name, resource).replace(
    '      tolerations:',
    `      nodeSelector: { ${selector} }\n      tolerations:`,
  );

describe('the index tells same-named pools of two clusters apart', () => {
  let remote: FixtureRemote;
  let cacheDir: string;
  let index: RepoIndex;

  beforeAll(async () => {
    remote = await createFixtureRemote({
      // prod's team wrote its own G5 NodePool under the name of dev's product pool.
      'clusters/prod/karpenter/gpu-t4-ts4.yaml': G5_POOL.replace(
        'name: gpu-g5',
        'name: gpu-t4-ts4',
      ),
      'apps/ml/team-job/deployment.yaml': selecting(
        'team-job',
        'karpenter.sh/nodepool: gpu-t4-ts4, karpenter.k8s.aws/instance-family: g5',
        'nvidia.com/gpu',
      ),
      'apps/ml/ts-job/deployment.yaml': selecting(
        'ts-job',
        'gpu.backstage.io/pool: gpu-t4-ts4',
        'nvidia.com/gpu.shared',
      ),
    });
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
    index = new RepoIndex(
      {
        clusters: [
          resolveClusterProfile({ name: 'dev' }),
          resolveClusterProfile({ name: 'prod' }),
        ],
        defaultCluster: 'dev',
        catalog: builtinCatalog,
      },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    await index.refresh();
  });

  afterAll(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('counts a workload on the product pool of its cluster, not on the other cluster’s team NodePool of that name', () => {
    const snapshot = index.snapshot();
    const tsJob = snapshot.workloads.find(w => w.id === 'ml/ts-job');
    expect(tsJob).toMatchObject({ cluster: 'dev', pool: 'gpu-t4-ts4' });
    expect(tsJob?.unpooledNodes).toBeUndefined();
    expect(tsJob?.placementWarning).toBeUndefined();
    const devPool = new AllocationQueries(builtinCatalog)
      .pools(snapshot)
      .find(p => p.cluster === 'dev' && p.name === 'gpu-t4-ts4');
    expect(devPool?.consumers.map(c => c.id)).toContain('ml/ts-job');
  });

  it('puts a workload on the team’s NodePool on that NodePool’s cluster', () => {
    const teamJob = index
      .snapshot()
      .workloads.find(w => w.id === 'ml/team-job');
    expect(teamJob).toMatchObject({
      cluster: 'prod',
      unpooledNodes: ['gpu-t4-ts4'],
    });
    expect(teamJob?.pool).toBeUndefined();
    expect(teamJob?.placementWarning).toBeUndefined();
  });
});

/**
 * The team's NodeOverlay, in a file of its own, telling Karpenter the nodes of
 * its hand-written NodePool hold 8 time-slices each (the GPU Operator's
 * default config slices them; the repository holds no config of it).
 */
const SLICES_OVERLAY = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: team-g5-slices
spec:
  requirements:
    - { key: karpenter.sh/nodepool, operator: In, values: ["team-g5"] }
  capacity:
    nvidia.com/gpu.shared: "8"
`;

describe('the index gives NodePools what the cluster’s NodeOverlays add (one model with readRepoState and verify)', () => {
  let remote: FixtureRemote;
  let cacheDir: string;
  let index: RepoIndex;

  beforeAll(async () => {
    remote = await createFixtureRemote({
      'clusters/prod/karpenter/team-g5.yaml': G5_POOL.replace(
        'name: gpu-g5',
        'name: team-g5',
      ),
      'clusters/prod/karpenter/team-g5-slices.yaml': SLICES_OVERLAY,
      'apps/ml/sliced/deployment.yaml': selecting(
        'sliced',
        'karpenter.sh/nodepool: team-g5',
        'nvidia.com/gpu.shared',
      ),
    });
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
    index = new RepoIndex(
      {
        clusters: [
          resolveClusterProfile({ name: 'dev' }),
          resolveClusterProfile({ name: 'prod' }),
        ],
        defaultCluster: 'dev',
        catalog: builtinCatalog,
      },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    await index.refresh();
  });

  afterAll(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('lands a workload asking for the slices only the team’s overlay adds on the team’s NodePool, as readRepoState does', async () => {
    const snapshot = index.snapshot();
    const sliced = snapshot.workloads.find(w => w.id === 'ml/sliced');
    expect(sliced).toMatchObject({
      cluster: 'prod',
      unpooledNodes: ['team-g5'],
    });
    expect(sliced?.placementWarning).toBeUndefined();
    expect(
      new AllocationQueries(builtinCatalog).allocation(snapshot, sliced!),
    ).toMatchObject({ cluster: 'prod', teamNodes: ['team-g5'] });

    const state = await readRepoState(
      new FsRepoTree(path.join(remote.root, 'work')),
      {},
      'prod',
      { catalog: builtinCatalog },
    );
    expect(
      state.workloads.find(w => w.id === 'ml/sliced')?.unpooledNodes,
    ).toEqual(sliced?.unpooledNodes);
  });

  it('forgets what the overlay added once it is deleted', async () => {
    await remote.commit(
      { 'clusters/prod/karpenter/team-g5-slices.yaml': null },
      'drop the team overlay',
    );
    await index.refresh();
    const sliced = index.snapshot().workloads.find(w => w.id === 'ml/sliced');
    expect(sliced?.unpooledNodes).toBeUndefined();
    expect(sliced?.placementWarning).toMatch(
      /its pods can land on no GPU pool of any indexed cluster/,
    );
  });
});
