/**
 * The repository of a large platform team (issue 24): 10 clusters of 2k
 * GPU pools each, 100k GPU workloads spread over them, 10k stored
 * GpuRequests, and 1k open GPU pull requests (`gpu/<name>` branches whose
 * commit carries the product's `Gpu-Request:` trailer, as the publisher
 * writes it). One `git fast-import` stream, no work tree; kept across runs
 * in the temp folder under the generator's version, so only the first run
 * pays for it. Workload, pool and request texts are gpuRepo's.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { requestBranchName } from '@gpu-gitops/plugin-gpu-node';
import { git } from './gitSync';
import {
  MODES,
  namespaceOf,
  poolYaml,
  requestYaml,
  workloadReplicas,
  workloadYaml,
  writeGpuConfigs,
} from './gpuRepo';

/** Bump when what is generated changes: the cached repository is then made again. */
const GENERATOR_VERSION = 4;

export const SCALE = {
  clusters: 10,
  poolsPerCluster: 2_000,
  workloads: 100_000,
  /** Workloads with a stored GpuRequest: every tenth (and each one an open pull request changes). */
  requests: 10_000,
  openPullRequests: 1_000,
  /** Open pull requests whose files the bench's move of `main` changes. */
  touchedPullRequests: 50,
} as const;

export const clusterName = (c: number) => `cluster-${c}`;

export const scaleClusters = () =>
  Array.from({ length: SCALE.clusters }, (_, c) =>
    resolveClusterProfile({ name: clusterName(c) }),
  );

/**
 * The sharing modes of the scale clusters' pools: gpuRepo's less MPS. A
 * cluster of the default profile runs the MIG strategy "mixed" (its MIG
 * pools advertise `nvidia.com/mig-1g.5gb`), and the device plugin refuses
 * MPS under "mixed" (gpu-common `cluster/capabilities.ts`): a request for
 * an MPS pool there is refused, so the repository cannot hold one.
 */
const SCALE_MODES = MODES.flatMap((m, index) =>
  m.sharing === 'mps' ? [] : [index],
);

/** gpuRepo's mode index of pool `i` of a scale cluster. */
const modeOf = (i: number) => SCALE_MODES[i % SCALE_MODES.length];

/** Where workload `j` runs: cluster `j % 10`, one of that cluster's pools. */
export function scalePlacement(j: number) {
  const c = j % SCALE.clusters;
  const index = Math.floor(j / SCALE.clusters) % SCALE.poolsPerCluster;
  return {
    cluster: clusterName(c),
    pool: { index: modeOf(index), name: `gpu-c${c}-p${index}` },
  };
}

/**
 * Pool `i` of cluster `c` as the product writes its pools: with its
 * managed-by label (a pool the product changes must be its own: the
 * publisher's verification refuses to change anyone else's) and the ledger
 * of the stored requests whose workloads run on it (gpu-common
 * `formatLedger`: the planner keeps a request on the pool that holds it).
 */
export function scalePoolYaml(c: number, i: number): string {
  const ledger: string[] = [];
  const perRound = SCALE.clusters * SCALE.poolsPerCluster;
  for (let j = c + SCALE.clusters * i; j < SCALE.workloads; j += perRound) {
    if (hasStoredRequest(j)) {
      ledger.push(`${namespaceOf(j)}/app-${j}=${workloadReplicas(j)}`);
    }
  }
  const annotations =
    ledger.length > 0
      ? `  annotations: { gpu.backstage.io/requests: '${ledger.sort().join(', ')}' }\n`
      : '';
  return poolYaml(modeOf(i), `gpu-c${c}-p${i}`).replace(
    /\nmetadata:\n  name: (.*)\n/,
    `\nmetadata:\n  name: $1\n  labels: { app.kubernetes.io/managed-by: backstage-gpu-gitops }\n${annotations}`,
  );
}

/** The workload the `n`-th open pull request changes (distinct for every n: 101 and 100k are coprime). */
export const pullRequestWorkload = (n: number) => (n * 101) % SCALE.workloads;

const deploymentPath = (j: number) =>
  `apps/${namespaceOf(j)}/app-${j}/deployment.yaml`;
const requestPath = (j: number) => `requests/${namespaceOf(j)}/app-${j}.yaml`;

/** The workloads the open pull requests change (`pullRequestWorkload`). */
const pullRequestWorkloads = new Set(
  Array.from({ length: SCALE.openPullRequests }, (_, n) =>
    pullRequestWorkload(n),
  ),
);

/**
 * Whether workload `j` has its GpuRequest stored on main: every tenth, and
 * every one an open pull request changes (the product wrote it; the pull
 * request asks for more).
 */
const hasStoredRequest = (j: number) =>
  j % (SCALE.workloads / SCALE.requests) === 0 || pullRequestWorkloads.has(j);

/**
 * Workload `j`: a team's own Deployment, or, when a GpuRequest of its name
 * is stored, the one the product wrote for it (its managed-by label and
 * request annotation; the shape of gpu-common `buildDeployment`), which a
 * re-render may change: the product never overwrites a workload of the same
 * name it does not manage.
 */
export function scaleWorkloadYaml(j: number, replicas: number): string {
  const { pool } = scalePlacement(j);
  return hasStoredRequest(j)
    ? ownedWorkloadYaml(j, replicas, pool)
    : workloadYaml(j, replicas, pool);
}

function ownedWorkloadYaml(
  j: number,
  replicas: number,
  pool: { index: number; name: string },
): string {
  const m = MODES[pool.index];
  const name = `app-${j}`;
  const annotations = `{ gpu.backstage.io/request: ${namespaceOf(j)}/${name}, gpu.backstage.io/pool: ${pool.name}, gpu.backstage.io/sharing-mode: ${m.sharing} }`;
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespaceOf(j)}
  labels: { app.kubernetes.io/name: ${name}, backstage.io/kubernetes-id: ${name}, app.kubernetes.io/managed-by: backstage-gpu-gitops }
  annotations: ${annotations}
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app.kubernetes.io/name: ${name} } }
  template:
    metadata:
      labels: { app.kubernetes.io/name: ${name}, backstage.io/kubernetes-id: ${name} }
      annotations: ${annotations}
    spec:
      nodeSelector: { karpenter.sh/nodepool: ${pool.name} }
      tolerations:
        - { key: nvidia.com/gpu, operator: Equal, value: 'true', effect: NoSchedule }
      containers:
        - name: ${name}
          image: registry.example/${name}:1
          resources:
            limits: { ${m.resource}: '1' }
`;
}

export function scaleRequestYaml(j: number, replicas: number): string {
  const { cluster, pool } = scalePlacement(j);
  return requestYaml(j, pool.index, cluster, replicas);
}

/**
 * The GPU kustomization of cluster `c`, bootstrapped (the publisher writes
 * requests for the cluster), deploying its pools as the product lists them.
 */
export function scaleGpuKustomization(c: number): string {
  const pools = Array.from(
    { length: SCALE.poolsPerCluster },
    (_, i) => `  - nodepools/gpu-c${c}-p${i}.yaml\n`,
  );
  return `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${pools.join('')}`;
}

/** A fast-import stream builder: `M` lines with inline data. */
class ImportStream {
  readonly lines: string[] = [];
  file(p: string, content: string) {
    this.lines.push(
      `M 100644 inline ${p}`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  }
  commit(
    ref: string,
    time: number,
    message: string,
    from?: string,
    mark?: string,
  ) {
    this.lines.push(
      `commit ${ref}`,
      ...(mark ? [`mark ${mark}`] : []),
      `committer Bench <bench@example.invalid> ${time} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      ...(from ? [`from ${from}`] : []),
    );
  }
  text() {
    return `${this.lines.join('\n')}\n`;
  }
}

function generate(bare: string): void {
  git(path.dirname(bare), [
    'init',
    '--bare',
    '--quiet',
    '--initial-branch=main',
    bare,
  ]);
  const main = new ImportStream();
  main.commit('refs/heads/main', 1_700_000_000, 'seed', undefined, ':1');
  for (let c = 0; c < SCALE.clusters; c++) {
    const gpu = `clusters/${clusterName(c)}/gpu`;
    // Bootstrapped: the publisher writes requests for the cluster.
    main.file(`${gpu}/kustomization.yaml`, scaleGpuKustomization(c));
    writeGpuConfigs((p, t) => main.file(p, t), gpu);
    for (let i = 0; i < SCALE.poolsPerCluster; i++) {
      main.file(`${gpu}/nodepools/gpu-c${c}-p${i}.yaml`, scalePoolYaml(c, i));
    }
  }
  for (let j = 0; j < SCALE.workloads; j++) {
    main.file(deploymentPath(j), scaleWorkloadYaml(j, workloadReplicas(j)));
    if (hasStoredRequest(j)) {
      main.file(requestPath(j), scaleRequestYaml(j, workloadReplicas(j)));
    }
  }
  // Each open pull request: one commit on the generated main asking for
  // one more replica of its workload, its request stored beside it.
  for (let n = 0; n < SCALE.openPullRequests; n++) {
    const j = pullRequestWorkload(n);
    const replicas = workloadReplicas(j) + 1;
    // Named as the publisher names it: the updater re-renders a request onto
    // its own branch (`gpu/app-<j>` made every re-render a second branch).
    main.commit(
      `refs/heads/${requestBranchName(namespaceOf(j), `app-${j}`)}`,
      1_700_000_001 + n,
      `GPU request app-${j}\n\nGpu-Request: ${namespaceOf(j)}/app-${j}\n`,
      ':1',
    );
    main.file(deploymentPath(j), scaleWorkloadYaml(j, replicas));
    main.file(requestPath(j), scaleRequestYaml(j, replicas));
  }
  git(bare, ['fast-import', '--quiet'], main.text());
}

interface CachedRefs {
  refs: [string, string][];
}

/**
 * The scale repository, generated once per generator version and reset to
 * its generated branches on every use (a run moves `main` and the updater
 * pushes pull-request branches). Returns its path and whether it was made now.
 */
export async function scaleRepository(): Promise<{
  bare: string;
  generated: boolean;
}> {
  const root = path.join(
    os.tmpdir(),
    `gpu-gitops-scale-bench-v${GENERATOR_VERSION}`,
  );
  const bare = path.join(root, 'gitops.git');
  const refsFile = path.join(root, 'refs.json');
  let cached: CachedRefs | undefined;
  try {
    cached = JSON.parse(await fs.readFile(refsFile, 'utf8'));
  } catch {
    cached = undefined;
  }
  if (cached) {
    const current = new Set(
      git(bare, ['for-each-ref', '--format=%(refname)'])
        .split('\n')
        .filter(Boolean),
    );
    const kept = new Set(cached.refs.map(([ref]) => ref));
    git(
      bare,
      ['update-ref', '--stdin'],
      [
        ...cached.refs.map(([ref, sha]) => `update ${ref} ${sha}`),
        ...[...current].filter(r => !kept.has(r)).map(r => `delete ${r}`),
        '',
      ].join('\n'),
    );
    return { bare, generated: false };
  }
  await fs.rm(root, { recursive: true, force: true });
  await fs.mkdir(root, { recursive: true });
  generate(bare);
  const refs = git(bare, ['for-each-ref', '--format=%(refname) %(objectname)'])
    .split('\n')
    .filter(Boolean)
    .map(line => line.split(' ') as [string, string]);
  await fs.writeFile(refsFile, JSON.stringify({ refs }), 'utf8');
  return { bare, generated: true };
}

/** One more commit on main changing one workload's replicas (a merged PR). */
export function commitScaleWorkload(bare: string, round: number): string {
  const j = 13 + round * 1_009;
  const stream = new ImportStream();
  stream.commit(
    'refs/heads/main',
    1_700_100_000 + round,
    'scale',
    'refs/heads/main^0',
  );
  stream.file(deploymentPath(j), scaleWorkloadYaml(j, 5 + round));
  git(bare, ['fast-import', '--quiet'], stream.text());
  return deploymentPath(j);
}

/**
 * `main` moves under the open pull requests: one commit changing the
 * workloads of the first `SCALE.touchedPullRequests` of them (another
 * team scaled them), and nothing the others carry.
 */
export function moveMainUnderPullRequests(bare: string): void {
  const stream = new ImportStream();
  stream.commit(
    'refs/heads/main',
    1_700_200_000,
    'teams scale their workloads',
    'refs/heads/main^0',
  );
  for (let n = 0; n < SCALE.touchedPullRequests; n++) {
    const j = pullRequestWorkload(n);
    stream.file(deploymentPath(j), scaleWorkloadYaml(j, 7));
  }
  git(bare, ['fast-import', '--quiet'], stream.text());
}
