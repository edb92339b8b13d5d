/**
 * Allocation index of the gpu backend (issue 5 §4): a generated GitOps
 * repository with 2k GPU pools and 20k GPU workloads, indexed cold and again
 * after one new commit, and `GET /allocation` served at 200 requests/s.
 * All traffic goes to 127.0.0.1; request count and duration are bounded.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { mockServices } from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { AllocationQueries } from '@gpu-gitops/plugin-gpu-backend/src/allocation/AllocationQueries';
import { createRouter } from '@gpu-gitops/plugin-gpu-backend/src/http/router';
import {
  GitFetchSource,
  type RepoSource,
} from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/gitSnapshot';
import { RepoIndex } from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/RepoIndex';
import { git } from './gitSync';
import { formatMs, percentile, report } from './stats';

const POOLS = 2_000;
const WORKLOADS = 20_000;
/** Workloads that also have their stored GpuRequest (planned on lookup). */
const REQUESTS = 2_000;
const COMMIT_ROUNDS = 5;
const RATE_PER_SECOND = 200;
const API_SECONDS = 5;

const MODES = [
  {
    model: 't4',
    sharing: 'time-slicing',
    config: 'ts-4',
    slices: 4,
    resource: 'nvidia.com/gpu.shared',
    it: 'g4dn.xlarge',
  },
  {
    model: 'a10g',
    sharing: 'time-slicing',
    config: 'ts-2',
    slices: 2,
    resource: 'nvidia.com/gpu.shared',
    it: 'g5.xlarge',
  },
  {
    model: 'l4',
    sharing: 'mps',
    config: 'mps-4',
    slices: 4,
    resource: 'nvidia.com/gpu.shared',
    it: 'g6.xlarge',
  },
  {
    model: 'a100-40gb',
    sharing: 'mig',
    config: 'all-1g.5gb',
    slices: 7,
    resource: 'nvidia.com/mig-1g.5gb',
    it: 'p4d.24xlarge',
  },
] as const;

function poolYaml(i: number): string {
  const m = MODES[i % MODES.length];
  const configLabel =
    m.sharing === 'mig'
      ? `        nvidia.com/mig.config: ${m.config}\n        gpu.backstage.io/mig-profile: 1g.5gb\n`
      : `        nvidia.com/device-plugin.config: ${m.config}\n        gpu.backstage.io/slices-per-gpu: '${m.slices}'\n`;
  return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-p${i}
spec:
  template:
    metadata:
      labels:
        gpu.backstage.io/gpu-model: ${m.model}
        gpu.backstage.io/sharing: ${m.sharing}
        gpu.backstage.io/resource-name: ${m.resource}
${configLabel}    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu }
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ['${m.it}']
        - key: karpenter.sh/capacity-type
          operator: In
          values: ['on-demand']
      taints:
        - { key: nvidia.com/gpu, value: 'true', effect: NoSchedule }
  disruption: { consolidationPolicy: WhenEmpty, consolidateAfter: 5m }
  limits:
    nvidia.com/gpu: '4'
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: gpu-p${i}-1gpu
spec:
  requirements:
    - { key: karpenter.sh/nodepool, operator: In, values: ['gpu-p${i}'] }
  capacity:
    ${m.resource}: '${m.slices}'
`;
}

function workloadYaml(j: number, replicas: number): string {
  const pool = j % POOLS;
  const m = MODES[pool % MODES.length];
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${j}
  namespace: ns-${j % 100}
  labels: { backstage.io/kubernetes-id: app-${j} }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: app-${j} } }
  template:
    metadata: { labels: { app: app-${j}, backstage.io/kubernetes-id: app-${j} } }
    spec:
      nodeSelector: { karpenter.sh/nodepool: gpu-p${pool} }
      containers:
        - name: app
          image: registry.example/app-${j}:1
          resources:
            limits: { ${m.resource}: 1 }
`;
}

function requestYaml(j: number): string {
  const m = MODES[(j % POOLS) % MODES.length];
  return `apiVersion: gpu.backstage.io/v1alpha1
kind: GpuRequest
metadata: { name: app-${j}, namespace: ns-${j % 100} }
spec:
  owner: group:default/team-${j % 50}
  gpu: { model: ${m.model}, sharing: ${m.sharing}, replicas: ${1 + (j % 3)}, vramGiB: 4${
    m.sharing === 'time-slicing' ? `, slicesPerGpu: ${m.slices}` : ''
  } }
  workload: { image: registry.example/app-${j}:1 }
  capacityTypes: [on-demand]
`;
}

/** The repository, made with `git fast-import` (no work tree). */
function createRepository(root: string): string {
  const bare = path.join(root, 'gitops.git');
  git(root, ['init', '--bare', '--quiet', '--initial-branch=main', bare]);
  const out: string[] = [
    'commit refs/heads/main',
    'committer Bench <bench@example.invalid> 1700000000 +0000',
    'data 4',
    'seed',
  ];
  const file = (p: string, content: string) =>
    out.push(
      `M 100644 inline ${p}`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  const gpu = 'clusters/prod/gpu';
  for (const m of MODES.filter(x => x.sharing !== 'mig')) {
    const mode = m.sharing === 'mps' ? 'mps' : 'timeSlicing';
    file(
      `${gpu}/device-plugin/${m.config}.yaml`,
      `version: v1\nflags: { migStrategy: none }\nsharing:\n  ${mode}:\n    renameByDefault: true\n    failRequestsGreaterThanOne: true\n    resources:\n      - { name: nvidia.com/gpu, replicas: ${m.slices} }\n`,
    );
  }
  file(
    `${gpu}/mig/config.yaml`,
    `version: v1\nmig-configs:\n  all-disabled:\n    - { devices: all, mig-enabled: false }\n  all-1g.5gb:\n    - devices: all\n      mig-enabled: true\n      mig-devices: { 1g.5gb: 7 }\n`,
  );
  for (let i = 0; i < POOLS; i++)
    file(`${gpu}/nodepools/gpu-p${i}.yaml`, poolYaml(i));
  for (let j = 0; j < WORKLOADS; j++) {
    file(
      `apps/ns-${j % 100}/app-${j}/deployment.yaml`,
      workloadYaml(j, 1 + (j % 3)),
    );
    if (j < REQUESTS)
      file(`requests/ns-${j % 100}/app-${j}.yaml`, requestYaml(j));
  }
  git(bare, ['fast-import', '--quiet'], `${out.join('\n')}\n`);
  return bare;
}

/** One more commit on main changing one workload (as a merged PR would). */
function commitOneWorkload(bare: string, round: number): void {
  const j = 7 + round * 101;
  const content = workloadYaml(j, 5 + round);
  git(
    bare,
    ['fast-import', '--quiet'],
    [
      'commit refs/heads/main',
      `committer Bench <bench@example.invalid> ${1_700_000_100 + round} +0000`,
      'data 5',
      'scale',
      'from refs/heads/main^0',
      `M 100644 inline apps/ns-${j % 100}/app-${j}/deployment.yaml`,
      `data ${Buffer.byteLength(content)}`,
      content,
      '',
    ].join('\n'),
  );
}

/** Times the fetch separately from the index work (diff, read, parse). */
class TimedSource implements RepoSource {
  syncMs = 0;
  constructor(private readonly inner: RepoSource) {}
  async sync() {
    const start = performance.now();
    const result = await this.inner.sync();
    this.syncMs = performance.now() - start;
    return result;
  }
  listBlobs(revision: string, folders: string[]) {
    return this.inner.listBlobs(revision, folders);
  }
  changedBlobs(from: string, to: string, folders: string[]) {
    return this.inner.changedBlobs(from, to, folders);
  }
  readBlobs(shas: string[]) {
    return this.inner.readBlobs(shas);
  }
}

/** An in-memory catalog keyed by ref: the lookup cost stays out of the figure. */
function mapCatalog(): CatalogService {
  const entity = (name: string): Entity => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name,
      namespace: 'default',
      annotations: { 'backstage.io/kubernetes-id': name },
    },
  });
  return {
    async getEntityByRef(ref: string) {
      const match = /^component:default\/(app-\d+)$/.exec(ref);
      return match && Number(match[1].slice(4)) < WORKLOADS
        ? entity(match[1])
        : undefined;
    },
    async getEntities() {
      return { items: [] };
    },
  } as unknown as CatalogService;
}

async function loadAllocationApi(index: RepoIndex): Promise<number[]> {
  const cluster = resolveClusterProfile({ name: 'prod' });
  const router = await createRouter({
    httpAuth: mockServices.httpAuth(),
    catalog: mapCatalog(),
    snapshot: () => index.snapshot(),
    queries: new AllocationQueries(builtinCatalog),
    gpuCatalog: builtinCatalog,
    clusters: [cluster],
    defaultCluster: 'prod',
  });
  const server = http.createServer(express().use(router));
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const get = (j: number) =>
    new Promise<void>((resolve, reject) => {
      const start = performance.now();
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            agent,
            path: `/allocation?entityRef=component:default/app-${j}`,
          },
          res => {
            res.resume();
            res.on('end', () => {
              if (res.statusCode !== 200) {
                reject(new Error(`status ${res.statusCode}`));
              }
              latencies.push(performance.now() - start);
              resolve();
            });
          },
        )
        .on('error', reject);
    });
  // Open loop: one request every 5 ms for API_SECONDS, whatever the answers do.
  const total = RATE_PER_SECOND * API_SECONDS;
  const pending: Promise<void>[] = [];
  const began = performance.now();
  for (let n = 0; n < total; n++) {
    const due = began + (n * 1000) / RATE_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise(r => setTimeout(r, wait));
    // Half the lookups hit entities with a stored request (planned on first use).
    pending.push(get(n % 2 === 0 ? (n * 7) % REQUESTS : (n * 13) % WORKLOADS));
  }
  await Promise.all(pending);
  agent.destroy();
  await new Promise(resolve => server.close(resolve));
  return latencies;
}

export async function benchAllocationIndex(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-bench-'));
  try {
    let start = performance.now();
    const bare = createRepository(root);
    console.log(
      `allocation-index: generated ${POOLS} pools, ${WORKLOADS} workloads, ${REQUESTS} requests in ${formatMs(performance.now() - start)}`,
    );
    const source = new TimedSource(
      new GitFetchSource({
        repoUrl: bare,
        baseBranch: 'main',
        cacheDir: path.join(root, 'cache'),
      }),
    );
    const options = {
      clusters: [resolveClusterProfile({ name: 'prod' })],
      defaultCluster: 'prod',
      catalog: builtinCatalog,
      stateFile: path.join(root, 'cache', 'index-state.json'),
    };

    // First start ever: every file is parsed.
    const first = new RepoIndex(options, source);
    start = performance.now();
    const cold = await first.refresh();
    const coldTotal = performance.now() - start;
    console.log(
      `allocation-index: first fetch ${formatMs(source.syncMs)}, ${cold.parsedPaths.length} files parsed`,
    );
    report(
      'allocation-index',
      `first index ${formatMs(coldTotal - source.syncMs)}`,
      coldTotal - source.syncMs,
      { max: 1000, unit: 'ms' },
    );
    await first.whenSaved();

    // A restarted backend: the saved parse results, then only what changed.
    const index = new RepoIndex(options, source);
    start = performance.now();
    const restart = await index.refresh();
    const restartTotal = performance.now() - start;
    if (!restart.restored)
      throw new Error('the saved index state was not used');
    report(
      'allocation-index',
      `cold restart ${formatMs(restartTotal - source.syncMs)}`,
      restartTotal - source.syncMs,
      { max: 1000, unit: 'ms' },
    );
    const snapshot = index.snapshot();
    if (
      snapshot.workloads.length !== WORKLOADS ||
      snapshot.clusters.get('prod')!.repoState.pools.length !== POOLS
    ) {
      throw new Error(
        `index incomplete: ${snapshot.workloads.length} workloads, ${snapshot.clusters.get('prod')!.repoState.pools.length} pools`,
      );
    }

    const indexMs: number[] = [];
    const totalMs: number[] = [];
    for (let round = 0; round < COMMIT_ROUNDS; round++) {
      commitOneWorkload(bare, round);
      start = performance.now();
      const result = await index.refresh();
      const took = performance.now() - start;
      if (result.full || result.changedPaths.length !== 1) {
        throw new Error(
          `expected an incremental refresh of one file, got ${JSON.stringify(result.changedPaths)}`,
        );
      }
      totalMs.push(took);
      indexMs.push(took - source.syncMs);
    }
    report(
      'allocation-index',
      `+1 commit index p50 ${formatMs(percentile(indexMs, 50))}`,
      percentile(indexMs, 50),
      { max: 50, unit: 'ms' },
    );
    report(
      'allocation-index',
      `+1 commit with fetch p50 ${formatMs(percentile(totalMs, 50))}`,
      percentile(totalMs, 50),
      { max: 50, unit: 'ms' },
    );

    const latencies = await loadAllocationApi(index);
    console.log(
      `allocation-index: ${latencies.length} GET /allocation at ${RATE_PER_SECOND}/s, p50 ${formatMs(percentile(latencies, 50))}, max ${formatMs(Math.max(...latencies))}`,
    );
    report(
      'allocation-index',
      `GET /allocation p95 ${formatMs(percentile(latencies, 95))}`,
      percentile(latencies, 95),
      { max: 20, unit: 'ms' },
    );
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
