/**
 * Hand-written plans, one per sharing mode, and cluster profiles, so the
 * manifest builders can be tested without the planner. Values follow the
 * catalog facts (g4dn = T4, g6 = L4, p4d = A100-40GB) but are typed literals.
 */
import type { ClusterProfile } from '../../cluster/types';
import type { KubernetesObject } from '../types';
import type { PatchTarget } from '../workloadPatch';
import {
  viewWorkload,
  workloadApiVersion,
  workloadShape,
} from '../workloadShape';
import type { Plan } from '../../planner/types';
import type { GpuRequest, SharingMode, WorkloadKind } from '../../request/types';

export const awsCluster: ClusterProfile = {
  name: 'prod-eu',
  provider: 'aws-karpenter',
  karpenterVersion: '1.14.1',
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' },
  generateNodeClass: true,
  devicePluginConfigMap: {
    name: 'nvidia-device-plugin-configs',
    namespace: 'gpu-operator',
  },
  migPartedConfigMap: {
    name: 'custom-mig-parted-config',
    namespace: 'gpu-operator',
  },
  migStrategy: 'mixed',
  nodeOverlay: true,
  gpuTaintKey: 'gpu.backstage.io/pool',
  labelDomain: 'gpu.backstage.io',
  consolidateAfter: '5m',
  systemNamespaces: ['kube-system', 'kube-public', 'kube-node-lease'],
};

/** A cluster without the NodeOverlay feature gate that brings its own EC2NodeClass. */
export const plainCluster: ClusterProfile = {
  ...awsCluster,
  name: 'legacy',
  karpenterVersion: '1.6.0',
  generateNodeClass: false,
  nodeOverlay: false,
  migStrategy: 'single',
  consolidateAfter: '10m',
};

function request(
  name: string,
  sharing: SharingMode,
  model: string,
  extra: Partial<GpuRequest['spec']['gpu']> = {},
  workload: GpuRequest['spec']['workload'] = {
    image: 'ghcr.io/acme/inference:1.2.3',
  },
): GpuRequest {
  return {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml-team' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: {
        model,
        sharing,
        replicas: 3,
        vramGiB: 4,
        gpusPerReplica: 1,
        ...extra,
      },
      workload,
      capacityTypes: ['on-demand'],
    },
  };
}

function taint(pool: string) {
  return {
    key: awsCluster.gpuTaintKey,
    value: pool,
    effect: 'NoSchedule' as const,
  };
}

const base = {
  cluster: awsCluster.name,
  leftPools: [],
  // Manifests never read costs or decisions; a plan carries them all the same.
  cost: {
    usdPerHour: 1,
    usdPerMonth: 730,
    marginalUsdPerMonth: 730,
    priceKnown: true,
    pool: {
      name: 'hand-written',
      nodes: 1,
      nodeUsdPerMonth: 730,
      usdPerMonth: 730,
      idleUsdPerMonth: 0,
      capacityUnits: 1,
      allocatedUnits: 1,
      idleUnits: 0,
      shares: [],
    },
  },
  decisions: {
    model: { choice: 'hand-written', reason: 'fixture', considered: [] },
    sharing: { choice: 'hand-written', reason: 'fixture', considered: [] },
    pool: { choice: 'hand-written', reason: 'fixture', considered: [] },
  },
  warnings: [],
  explanation: ['hand-written fixture'],
};

export const exclusiveT4Plan: Plan = {
  ...base,
  request: request('t4-exclusive', 'exclusive', 't4', { vramGiB: 14 }),
  pool: {
    name: 'gpu-t4',
    gpuModel: 't4',
    instanceTypes: ['g4dn.xlarge', 'g4dn.2xlarge'],
    gpuCounts: [1],
    karpenterGpuNames: ['t4'],
    capacityTypes: ['on-demand'],
    reused: false,
    taint: taint('gpu-t4'),
    labels: { 'gpu.backstage.io/pool': 'gpu-t4' },
    limits: { 'nvidia.com/gpu': 3 },
    ledger: [],
  },
  sharing: { mode: 'exclusive' },
  resourceName: 'nvidia.com/gpu',
  resourcePerReplica: 1,
  perReplica: {
    vramGiB: 14,
    vramGuaranteed: true,
    memoryMiB: 15360,
    gpuShare: 1,
  },
  nodes: { expected: 3, slicesPerNode: 1, instanceType: 'g4dn.xlarge' },
  physicalGpus: 3,
};

export const timeSlicingT4Plan: Plan = {
  ...base,
  request: request('t4-shared', 'time-slicing', 't4', { slicesPerGpu: 4 }),
  pool: {
    name: 'gpu-t4-ts4',
    gpuModel: 't4',
    instanceTypes: ['g4dn.xlarge', 'g4dn.12xlarge'],
    gpuCounts: [1, 4],
    karpenterGpuNames: ['t4'],
    capacityTypes: ['on-demand', 'spot'],
    reused: false,
    taint: taint('gpu-t4-ts4'),
    labels: {
      'gpu.backstage.io/pool': 'gpu-t4-ts4',
      'nvidia.com/device-plugin.config': 'ts-4-1a2b3c4d',
    },
    limits: { 'nvidia.com/gpu.shared': 4 },
    ledger: [],
  },
  sharing: {
    mode: 'time-slicing',
    slicesPerGpu: 4,
    deviceConfigName: 'ts-4-1a2b3c4d',
  },
  resourceName: 'nvidia.com/gpu.shared',
  resourcePerReplica: 1,
  perReplica: {
    vramGiB: 4,
    vramGuaranteed: false,
    memoryMiB: 3840,
    gpuShare: 0.25,
  },
  nodes: { expected: 1, slicesPerNode: 4, instanceType: 'g4dn.xlarge' },
  physicalGpus: 0.75,
};

export const mpsL4Plan: Plan = {
  ...base,
  request: request('l4-mps', 'mps', 'l4', { replicas: 6 }),
  pool: {
    name: 'gpu-l4-mps4',
    gpuModel: 'l4',
    instanceTypes: ['g6.xlarge', 'g6.12xlarge'],
    gpuCounts: [1, 4],
    karpenterGpuNames: ['l4'],
    capacityTypes: ['on-demand'],
    reused: false,
    taint: taint('gpu-l4-mps4'),
    labels: {
      'gpu.backstage.io/pool': 'gpu-l4-mps4',
      'nvidia.com/device-plugin.config': 'mps-4-9f8e7d6c',
    },
    limits: { 'nvidia.com/gpu.shared': 8 },
    ledger: [],
  },
  sharing: {
    mode: 'mps',
    slicesPerGpu: 4,
    deviceConfigName: 'mps-4-9f8e7d6c',
    mpsPinnedMemoryMiB: 5734,
  },
  resourceName: 'nvidia.com/gpu.shared',
  resourcePerReplica: 1,
  perReplica: {
    vramGiB: 4,
    vramGuaranteed: true,
    memoryMiB: 5734,
    gpuShare: 0.25,
  },
  nodes: { expected: 2, slicesPerNode: 4, instanceType: 'g6.xlarge' },
  physicalGpus: 1.5,
};

export const migA100Plan: Plan = {
  ...base,
  request: request('a100-mig', 'mig', 'a100-40gb', {
    vramGiB: 18,
    replicas: 4,
  }),
  pool: {
    name: 'gpu-a100-40gb-mig-3g.20gb',
    gpuModel: 'a100-40gb',
    instanceTypes: ['p4d.24xlarge'],
    gpuCounts: [8],
    karpenterGpuNames: ['a100'],
    capacityTypes: ['on-demand'],
    reused: false,
    taint: taint('gpu-a100-40gb-mig-3g.20gb'),
    labels: {
      'gpu.backstage.io/pool': 'gpu-a100-40gb-mig-3g.20gb',
      'nvidia.com/mig.config': 'all-3g.20gb',
    },
    limits: { 'nvidia.com/mig-3g.20gb': 16 },
    ledger: [],
  },
  sharing: {
    mode: 'mig',
    migProfile: '3g.20gb',
    migLayout: { '3g.20gb': 2 },
    migConfigName: 'all-3g.20gb',
  },
  resourceName: 'nvidia.com/mig-3g.20gb',
  resourcePerReplica: 1,
  perReplica: {
    vramGiB: 18,
    vramGuaranteed: true,
    memoryMiB: 19968,
    // One of the 2 instances of its GPU; 3 of the GPU's 7 compute slices.
    gpuShare: 0.5,
    computeShare: 3 / 7,
  },
  nodes: { expected: 1, slicesPerNode: 16, instanceType: 'p4d.24xlarge' },
  physicalGpus: 2,
};

export const draL4Plan: Plan = {
  ...base,
  request: request('l4-dra', 'dra', 'l4', { vramGiB: 20, replicas: 2 }),
  pool: {
    name: 'gpu-l4-dra',
    gpuModel: 'l4',
    instanceTypes: ['g6.xlarge'],
    gpuCounts: [1],
    karpenterGpuNames: ['l4'],
    capacityTypes: ['on-demand'],
    reused: false,
    taint: taint('gpu-l4-dra'),
    labels: { 'gpu.backstage.io/pool': 'gpu-l4-dra' },
    limits: { nodes: 2 },
    ledger: [],
  },
  sharing: { mode: 'dra' },
  resourceName: 'gpu.nvidia.com',
  resourcePerReplica: 1,
  perReplica: {
    vramGiB: 20,
    vramGuaranteed: true,
    memoryMiB: 22888,
    gpuShare: 1,
  },
  nodes: { expected: 2, slicesPerNode: 1, instanceType: 'g6.xlarge' },
  physicalGpus: 2,
  warnings: [
    'Karpenter does not provision for pods with DRA claims: the pool is static.',
  ],
};

/** The same plan, but patching an existing workload instead of creating one. */
export function asPatch(plan: Plan, kind: WorkloadKind, name: string): Plan {
  return {
    ...plan,
    request: {
      ...plan.request,
      spec: { ...plan.request.spec, workload: { existing: { kind, name } } },
    },
  };
}

export const fixturePlans: Record<SharingMode, Plan> = {
  exclusive: exclusiveT4Plan,
  'time-slicing': timeSlicingT4Plan,
  mps: mpsL4Plan,
  mig: migA100Plan,
  dra: draL4Plan,
};

/**
 * The existing workload a patch plan targets, as the repository would hold
 * it: one container named after the workload, one replica. Returns the
 * object (to merge the patch onto) and the patch target read from it.
 */
export function existingWorkloadFixture(plan: Plan): {
  object: KubernetesObject;
  target: PatchTarget;
} {
  const existing = plan.request.spec.workload.existing!;
  const { kind, name } = existing;
  const template = {
    metadata: { labels: { app: name } },
    spec: {
      ...(kind === 'Job' || kind === 'CronJob'
        ? { restartPolicy: 'Never' }
        : {}),
      containers: [{ name, image: 'registry.example/app:1' }],
    },
  };
  const spec: Record<string, unknown> = {};
  const path = workloadShape(kind).podTemplate;
  let node = spec;
  for (const key of path.slice(1, -1)) node = (node[key] ??= {}) as any;
  node[path[path.length - 1]] = template;
  if (kind === 'Deployment' || kind === 'StatefulSet') {
    spec.selector = { matchLabels: { app: name } };
    if (kind === 'StatefulSet') spec.serviceName = name;
  }
  if (kind === 'CronJob') spec.schedule = '0 * * * *';
  const object: KubernetesObject = {
    apiVersion: workloadApiVersion(kind),
    kind,
    metadata: { name, namespace: plan.request.metadata.namespace },
    spec,
  };
  return {
    object,
    target: {
      kind,
      name,
      manifestNamespace: plan.request.metadata.namespace,
      container: name,
      current: viewWorkload(kind, object),
    },
  };
}
