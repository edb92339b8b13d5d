/**
 * The generated GitOps repository the gpu backend's benchmarks share: 2k
 * GPU pools (time-slicing, MPS and MIG) and 20k GPU workloads, 2k of them
 * with their stored GpuRequest, made with `git fast-import`, and the
 * catalog whose components name those workloads. One generator, so the
 * figures of different benchmarks are about the same repository.
 */
import path from 'node:path';
import type { Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { git } from './gitSync';

export const POOLS = 2_000;
export const WORKLOADS = 20_000;
/** Workloads that also have their stored GpuRequest (planned on lookup). */
export const REQUESTS = 2_000;

export const MODES = [
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

/** Replicas of workload `j` as the repository declares them. */
export function workloadReplicas(j: number): number {
  return 1 + (j % 3);
}

/** The pool (`gpu-p<i>`) workload `j` runs in. */
export function poolOf(j: number): number {
  return j % POOLS;
}

/** The namespace of workload `j` (and of its stored request). */
export function namespaceOf(j: number): string {
  return `ns-${j % 100}`;
}

/** The NodePool (and its NodeOverlay) of pool `i`, in mode `MODES[i % 4]`. */
export function poolYaml(i: number, name = `gpu-p${i}`): string {
  const m = MODES[i % MODES.length];
  const configLabel =
    m.sharing === 'mig'
      ? `        nvidia.com/mig.config: ${m.config}\n        gpu.backstage.io/mig-profile: 1g.5gb\n`
      : `        nvidia.com/device-plugin.config: ${m.config}\n        gpu.backstage.io/slices-per-gpu: '${m.slices}'\n`;
  return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${name}
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
  name: ${name}-1gpu
spec:
  requirements:
    - { key: karpenter.sh/nodepool, operator: In, values: ['${name}'] }
  capacity:
    ${m.resource}: '${m.slices}'
`;
}

/**
 * Workload `j` on pool `pool` (index `i`: its mode), `gpu-p<i>` unless named.
 * It tolerates the pools' GPU taint as a real workload must: without it every
 * workload lands on no pool, and the index would time the worst case only.
 */
export function workloadYaml(
  j: number,
  replicas: number,
  pool: { index: number; name: string } = {
    index: poolOf(j),
    name: `gpu-p${poolOf(j)}`,
  },
): string {
  const m = MODES[pool.index % MODES.length];
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${j}
  namespace: ${namespaceOf(j)}
  labels: { backstage.io/kubernetes-id: app-${j} }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: app-${j} } }
  template:
    metadata: { labels: { app: app-${j}, backstage.io/kubernetes-id: app-${j} } }
    spec:
      nodeSelector: { karpenter.sh/nodepool: ${pool.name} }
      tolerations:
        - { key: nvidia.com/gpu, operator: Equal, value: 'true', effect: NoSchedule }
      containers:
        - name: app
          image: registry.example/app-${j}:1
          resources:
            limits: { ${m.resource}: 1 }
`;
}

/** The stored request of workload `j` (pool index `pool`: its mode; `cluster` when not the default). */
export function requestYaml(
  j: number,
  pool = poolOf(j),
  cluster?: string,
  replicas = 1 + (j % 3),
): string {
  const m = MODES[pool % MODES.length];
  return `apiVersion: gpu.backstage.io/v1alpha1
kind: GpuRequest
metadata: { name: app-${j}, namespace: ${namespaceOf(j)} }
spec:
  owner: group:default/team-${j % 50}
${cluster ? `  cluster: ${cluster}\n` : ''}  gpu: { model: ${m.model}, sharing: ${m.sharing}, replicas: ${replicas}, vramGiB: 4${
    m.sharing === 'time-slicing' ? `, slicesPerGpu: ${m.slices}` : ''
  } }
  workload: { image: registry.example/app-${j}:1 }
  capacityTypes: [on-demand]
`;
}

/** The device-plugin configs of the modes and the mig-parted config of one cluster's GPU folder. */
export function writeGpuConfigs(
  file: (path: string, content: string) => void,
  gpu: string,
): void {
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
}

/** The repository, made with `git fast-import` (no work tree). */
export function createRepository(root: string): string {
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
  writeGpuConfigs(file, gpu);
  for (let i = 0; i < POOLS; i++)
    file(`${gpu}/nodepools/gpu-p${i}.yaml`, poolYaml(i));
  for (let j = 0; j < WORKLOADS; j++) {
    file(
      `apps/${namespaceOf(j)}/app-${j}/deployment.yaml`,
      workloadYaml(j, workloadReplicas(j)),
    );
    if (j < REQUESTS)
      file(`requests/${namespaceOf(j)}/app-${j}.yaml`, requestYaml(j));
  }
  git(bare, ['fast-import', '--quiet'], `${out.join('\n')}\n`);
  return bare;
}

/** One more commit on main changing one workload (as a merged PR would). */
export function commitOneWorkload(bare: string, round: number): void {
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
      `M 100644 inline apps/${namespaceOf(j)}/app-${j}/deployment.yaml`,
      `data ${Buffer.byteLength(content)}`,
      content,
      '',
    ].join('\n'),
  );
}

/** An in-memory catalog keyed by ref: the lookup cost stays out of the figure. */
export function mapCatalog(workloads = WORKLOADS): CatalogService {
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
      return match && Number(match[1].slice(4)) < workloads
        ? entity(match[1])
        : undefined;
    },
    async getEntities() {
      return { items: [] };
    },
  } as unknown as CatalogService;
}
