import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import {
  builtinCatalog,
  costOfPool,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  existingRepoFiles,
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import {
  draRepoFiles,
  g5PoolFile,
  landingRepoFiles,
} from './__fixtures__/landingRepo';
import { readRepoState } from './readRepoState';
import { FsRepoTree } from './tree';

/** The pool's ledger as the planner derives it (a hand-written pool has none written). */
function ledgerShares(state: RepoState, pool: string) {
  return costOfPool(
    state.pools.find(p => p.name === pool)!,
    state,
    builtinCatalog,
  ).shares.map(s => [s.request, s.units]);
}

describe('readRepoState: where the GPU workloads land', () => {
  let dir: string;
  let state: RepoState;

  beforeAll(async () => {
    dir = await writeTempRepo({
      ...existingRepoFiles,
      ...landingRepoFiles,
      ...draRepoFiles,
    });
    state = await readRepoState(new FsRepoTree(dir), undefined, 'dev');
  });

  afterAll(() => removeTempRepo(dir));

  it('counts a workload that selects a pool only by its instance family on that pool', () => {
    expect(state.workloads.find(w => w.id === 'ml/llm-g5')).toMatchObject({
      pool: 'gpu-g5',
      replicas: 3,
      perReplica: 2,
    });
    expect(
      state.workloads.find(w => w.id === 'ml/llm-g5')?.placementWarning,
    ).toBeUndefined();
    // The planner's ledger of the pool holds its 3 × 2 GPUs.
    expect(ledgerShares(state, 'gpu-g5')).toEqual([['ml/llm-g5', 6]]);
    // The product's own workload stays on its pool.
    expect(state.workloads.find(w => w.id === 'ml/chat-assistant')?.pool).toBe(
      'gpu-t4-ts4',
    );
  });

  it('reports a workload whose selector no pool satisfies, with what blocks it', () => {
    const lost = state.workloads.find(w => w.id === 'ml/llm-p5');
    expect(lost?.pool).toBeUndefined();
    expect(lost?.placementWarning).toBe(
      'GPU workload ml/llm-p5 (apps/ml/llm-p5/deployment.yaml): its pods can land on no GPU pool of cluster dev: nodeSelector karpenter.k8s.aws/instance-family=p5: nodes of NodePool gpu-g5 carry g5 (and the same for gpu-l4-dra, gpu-t4-ts4); it is counted on none',
    );
  });

  it('lands a DRA workload only on a pool serving its DeviceClass, as its claim asks', () => {
    expect(state.workloads.find(w => w.id === 'ml/embed')).toMatchObject({
      pool: 'gpu-l4-dra',
      resourceName: 'gpu.nvidia.com',
    });
    expect(
      state.workloads.find(w => w.id === 'ml/embed')?.placementWarning,
    ).toBeUndefined();
  });
});

/** A team's Deployment that chooses no node: it tolerates every taint and asks for `resource`. */
function anywhereDeployment(name: string, resource: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ml
spec:
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      tolerations:
        - operator: Exists
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.0
          resources:
            limits:
              ${resource}: 1
`;
}

describe('readRepoState: GPU nodes no pool of the product describes', () => {
  let state: RepoState;
  let dir: string;

  beforeAll(async () => {
    dir = await writeTempRepo({
      ...existingRepoFiles,
      // Two hand-written GPU NodePools outside the pool folder: names only to the product.
      'clusters/dev/karpenter/team-g5.yaml': g5PoolFile.replace(
        'name: gpu-g5',
        'name: team-g5',
      ),
      'clusters/dev/karpenter/team-shared.yaml': g5PoolFile
        .replace('name: gpu-g5', 'name: team-shared')
        .replace('nvidia.com/gpu: 16', 'nvidia.com/gpu.shared: 16'),
      'apps/ml/whole/deployment.yaml': anywhereDeployment(
        'whole',
        'nvidia.com/gpu',
      ),
      'apps/ml/sliced/deployment.yaml': anywhereDeployment(
        'sliced',
        'nvidia.com/gpu.shared',
      ),
    });
    state = await readRepoState(new FsRepoTree(dir), undefined, 'dev');
  });

  afterAll(() => removeTempRepo(dir));

  it('does not call a selector-less GPU workload lost when a team’s own GPU NodePool takes it', () => {
    const whole = state.workloads.find(w => w.id === 'ml/whole');
    expect(whole?.pool).toBeUndefined();
    expect(whole?.placementWarning).toBeUndefined();
    // Where it runs, as the allocation index says it too.
    expect(whole?.unpooledNodes).toEqual(['team-g5']);
    // The team's pools stay names only: never pools the product counts on.
    expect(state.pools.map(p => p.name)).toEqual(['gpu-t4-ts4']);
    expect(state.otherNodePools).toEqual(
      expect.arrayContaining(['team-g5', 'team-shared']),
    );
  });

  it('says a selector-less GPU workload may land on a team’s GPU NodePool beside the product’s pool', () => {
    const sliced = state.workloads.find(w => w.id === 'ml/sliced');
    expect(sliced?.pool).toBe('gpu-t4-ts4');
    expect(sliced?.placementWarning).toBe(
      "GPU workload ml/sliced (apps/ml/sliced/deployment.yaml): its pods can land on pool gpu-t4-ts4 of cluster dev and on GPU nodes no pool of cluster dev describes (team-shared); it is counted on gpu-t4-ts4 (the only pool): select one pool's label to say which",
    );
  });
});

describe('readRepoState: only the workloads of the request’s cluster', () => {
  let dir: string;

  afterAll(() => removeTempRepo(dir));

  it('neither counts nor warns about a workload whose stored request runs it on another cluster', async () => {
    // The self-service wrote ml/trainer for cluster prod: it selects prod's pool, which dev has not.
    const trainer = anywhereDeployment('trainer', 'nvidia.com/gpu')
      .replace(
        '      labels: { app: trainer }\n',
        '      labels: { app: trainer }\n      annotations: { gpu.backstage.io/request: ml/trainer }\n',
      )
      .replace(
        '      tolerations:\n',
        '      nodeSelector: { gpu.backstage.io/pool: gpu-a100 }\n      tolerations:\n',
      );
    const record = (cluster: string) =>
      `apiVersion: gpu.backstage.io/v1alpha1\nkind: GpuRequest\nmetadata: { name: trainer, namespace: ml }\nspec:\n  cluster: ${cluster}\n`;
    dir = await writeTempRepo({
      ...existingRepoFiles,
      'apps/ml/trainer/deployment.yaml': trainer,
      'requests/ml/trainer.yaml': record('prod'),
    });
    const tree = new FsRepoTree(dir);
    const onDev = await readRepoState(tree, undefined, 'dev');
    expect(onDev.workloads.map(w => w.id)).not.toContain('ml/trainer');
    expect(
      onDev.workloads.flatMap(w => w.placementWarning ?? []).join('\n'),
    ).not.toContain('ml/trainer');
    // On its own cluster it is read, and the stale selector is warned about.
    await fs.writeFile(join(dir, 'requests/ml/trainer.yaml'), record('dev'));
    const ownCluster = await readRepoState(tree, undefined, 'dev');
    expect(ownCluster.workloads.find(w => w.id === 'ml/trainer')).toMatchObject(
      {
        request: 'ml/trainer',
        placementWarning: expect.stringContaining(
          'its pods can land on no GPU pool of cluster dev',
        ),
      },
    );
  });
});

describe('readRepoState: only the workloads the cluster’s folder deploys, annotated or not', () => {
  let dir: string;

  afterAll(() => removeTempRepo(dir));

  it('neither counts nor warns about an unannotated workload only another cluster’s kustomization deploys', async () => {
    // Written by hand for prod (no request annotation): it selects prod's pool, which dev has not.
    const trainer = anywhereDeployment('trainer', 'nvidia.com/gpu').replace(
      '      tolerations:\n',
      '      nodeSelector: { gpu.backstage.io/pool: gpu-a100 }\n      tolerations:\n',
    );
    const clusterRoot = (resources: string[]) =>
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${resources.map(r => `  - ${r}\n`).join('')}`;
    dir = await writeTempRepo({
      ...existingRepoFiles,
      'apps/ml/trainer/kustomization.yaml': clusterRoot(['deployment.yaml']),
      'apps/ml/trainer/deployment.yaml': trainer,
      'clusters/prod/kustomization.yaml': clusterRoot([
        '../../apps/ml/trainer',
      ]),
    });
    const tree = new FsRepoTree(dir);
    const onDev = await readRepoState(tree, undefined, 'dev');
    expect(onDev.workloads.map(w => w.id)).not.toContain('ml/trainer');
    expect(
      onDev.workloads.flatMap(w => w.placementWarning ?? []).join('\n'),
    ).not.toContain('ml/trainer');
    // The workloads of a folder no cluster's kustomization deploys stay (nothing tells where they run).
    expect(onDev.workloads.map(w => w.id)).toContain('ml/chat-assistant');
    // On prod it is read (and warned: prod's folder holds no pool in this repository).
    const onProd = await readRepoState(tree, undefined, 'prod');
    expect(onProd.workloads.map(w => w.id)).toContain('ml/trainer');
    // Deployed by dev's folder too: dev reads it, and warns.
    await fs.writeFile(
      join(dir, 'clusters/dev/kustomization.yaml'),
      clusterRoot([
        'karpenter/default-nodepool.yaml',
        'gpu',
        '../../apps/ml/trainer',
      ]),
    );
    const deployedOnDev = await readRepoState(tree, undefined, 'dev');
    expect(
      deployedOnDev.workloads.find(w => w.id === 'ml/trainer'),
    ).toMatchObject({
      placementWarning: expect.stringContaining(
        'its pods can land on no GPU pool of cluster dev',
      ),
    });
  });
});

describe('readRepoState: only the workloads an Argo CD Application or Flux Kustomization sends to the cluster', () => {
  let dir: string;

  afterAll(() => removeTempRepo(dir));

  it('attributes a workload folder an Application or Kustomization applies directly to the cluster it names', async () => {
    const selecting = (name: string) =>
      anywhereDeployment(name, 'nvidia.com/gpu').replace(
        '      tolerations:\n',
        '      nodeSelector: { gpu.backstage.io/pool: gpu-a100 }\n      tolerations:\n',
      );
    const application = (name: string, destination: string) =>
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        `metadata: { name: ${name}, namespace: argocd }`,
        'spec:',
        '  project: default',
        `  source: { repoURL: https://github.com/example/gitops.git, path: apps/ml/${name} }`,
        `  destination: { ${destination}, namespace: ml }`,
        '',
      ].join('\n');
    const fluxKustomization = (name: string, kubeConfig: string) =>
      [
        'apiVersion: kustomize.toolkit.fluxcd.io/v1',
        'kind: Kustomization',
        `metadata: { name: ${name}, namespace: flux-system }`,
        'spec:',
        '  interval: 10m',
        `  path: ./apps/ml/${name}`,
        '  prune: true',
        '  sourceRef: { kind: GitRepository, name: flux-system }',
        kubeConfig,
        '',
      ].join('\n');
    dir = await writeTempRepo({
      ...existingRepoFiles,
      // A kustomization no cluster folder lists, applied by an Application naming prod.
      'apps/ml/trainer/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n',
      'apps/ml/trainer/deployment.yaml': selecting('trainer'),
      'argocd/apps/trainer.yaml': application('trainer', 'name: prod'),
      // Plain manifests, applied by a management cluster's Flux through prod's Cluster API kubeconfig.
      'apps/ml/batch/deployment.yaml': selecting('batch'),
      'management/flux/batch.yaml': fluxKustomization(
        'batch',
        '  kubeConfig: { secretRef: { name: prod-kubeconfig } }',
      ),
      // Applied by prod's own Flux (its Kustomization in prod's folder, no kubeConfig).
      'apps/ml/embed/deployment.yaml': selecting('embed'),
      'clusters/prod/flux-system/embed.yaml': fluxKustomization('embed', ''),
      // An Application sending its folder to a cluster by address only: it may be any cluster.
      'apps/ml/remote/deployment.yaml': selecting('remote'),
      'argocd/apps/remote.yaml': application(
        'remote',
        'server: https://10.0.0.1:6443',
      ),
    });
    const tree = new FsRepoTree(dir);
    const onDev = await readRepoState(tree, undefined, 'dev');
    const devIds = onDev.workloads.map(w => w.id);
    expect(devIds).not.toContain('ml/trainer');
    expect(devIds).not.toContain('ml/batch');
    expect(devIds).not.toContain('ml/embed');
    expect(devIds).toContain('ml/remote');
    expect(
      onDev.workloads.flatMap(w => w.placementWarning ?? []).join('\n'),
    ).not.toMatch(/ml\/(trainer|batch|embed)/);
    const onProd = await readRepoState(tree, undefined, 'prod');
    expect(onProd.workloads.map(w => w.id)).toEqual(
      expect.arrayContaining(['ml/trainer', 'ml/batch', 'ml/embed']),
    );
  });
});

describe('readRepoState: the resources a team’s NodeOverlay adds to its NodePool', () => {
  let dir: string;

  afterAll(() => removeTempRepo(dir));

  it('lands a pod asking for slices only the team’s overlay gives on the team’s NodePool', async () => {
    const sliced = anywhereDeployment('sliced', 'nvidia.com/gpu.shared').replace(
      '      tolerations:\n',
      '      nodeSelector: { karpenter.sh/nodepool: team-g5 }\n      tolerations:\n',
    );
    dir = await writeTempRepo({
      ...existingRepoFiles,
      'clusters/dev/karpenter/team-g5.yaml': g5PoolFile.replace(
        'name: gpu-g5',
        'name: team-g5',
      ),
      // Its own file: Karpenter believes each g5 node of team-g5 holds 8 slices.
      'clusters/dev/karpenter/team-g5-slices.yaml': [
        'apiVersion: karpenter.sh/v1alpha1',
        'kind: NodeOverlay',
        'metadata: { name: team-g5-slices }',
        'spec:',
        '  requirements:',
        '    - { key: karpenter.sh/nodepool, operator: In, values: [team-g5] }',
        '  capacity: { nvidia.com/gpu.shared: "8" }',
        '',
      ].join('\n'),
      'apps/ml/sliced/deployment.yaml': sliced,
    });
    const state = await readRepoState(new FsRepoTree(dir), undefined, 'dev');
    const workload = state.workloads.find(w => w.id === 'ml/sliced');
    expect(workload?.unpooledNodes).toEqual(['team-g5']);
    expect(workload?.pool).toBeUndefined();
    expect(workload?.placementWarning).toBeUndefined();
  });
});
