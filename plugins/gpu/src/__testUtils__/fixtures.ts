import type { Entity } from '@backstage/catalog-model';
import type {
  AllocationResponse,
  GpuAllocation,
  PoolsResponse,
} from '@gpu-gitops/plugin-gpu-common';

export const chatEntity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'chat', namespace: 'default' },
  spec: { type: 'service', owner: 'group:default/ml', lifecycle: 'production' },
};

/**
 * Hand-written responses, priced as the cost model prices them (gpu-common
 * capacity/poolCost.ts; on-demand price x 730 h, in cents): a g6.xlarge is
 * $587.50/month, a g5.xlarge $734.38, a p4d.24xlarge $16,029.08.
 */

/** Four replicas time-sliced 4 ways on L4 (22.3 GiB): VRAM is NOT isolated; they fill one node. */
export const timeSliced: GpuAllocation = {
  id: 'ml/chat',
  namespace: 'ml',
  name: 'chat',
  entityRef: 'component:default/chat',
  cluster: 'prod',
  pool: 'gpu-l4-ts4',
  gpuModel: 'l4',
  sharingMode: 'time-slicing',
  resourceName: 'nvidia.com/gpu.shared',
  replicas: 4,
  perReplica: 1,
  gpuSharePerReplica: 0.25,
  vramMiBPerReplica: 5722,
  vramGuaranteed: false,
  physicalGpus: 1,
  usdPerMonth: 587.5,
  unitsHeld: 4,
  poolCost: {
    name: 'gpu-l4-ts4',
    nodes: 1,
    instanceType: 'g6.xlarge',
    nodeUsdPerMonth: 587.5,
    usdPerMonth: 587.5,
    idleUsdPerMonth: 0,
    capacityUnits: 4,
    allocatedUnits: 4,
    idleUnits: 0,
  },
  sources: ['apps/ml/chat/deployment.yaml'],
};

/** Two MPS clients on an A10G with a pinned 11.1 GiB each: one node. */
export const mps: GpuAllocation = {
  id: 'ml/embedder',
  namespace: 'ml',
  name: 'embedder',
  entityRef: 'component:default/chat',
  cluster: 'prod',
  pool: 'gpu-a10g-mps',
  gpuModel: 'a10g',
  sharingMode: 'mps',
  resourceName: 'nvidia.com/gpu.shared',
  replicas: 2,
  perReplica: 1,
  gpuSharePerReplica: 0.5,
  vramMiBPerReplica: 11444,
  vramGuaranteed: true,
  physicalGpus: 1,
  usdPerMonth: 734.38,
  unitsHeld: 2,
  poolCost: {
    name: 'gpu-a10g-mps',
    nodes: 1,
    instanceType: 'g5.xlarge',
    nodeUsdPerMonth: 734.38,
    usdPerMonth: 734.38,
    idleUsdPerMonth: 0,
    capacityUnits: 2,
    allocatedUnits: 2,
    idleUnits: 0,
  },
  sources: ['apps/ml/embedder/deployment.yaml'],
};

/**
 * Three replicas on A100-40GB MIG 3g.20gb slices, beside research/bert's two,
 * on one 8-GPU node of 16 instances: 1602908 cents split 3 : 2 : 11 idle.
 */
export const mig: GpuAllocation = {
  id: 'ml/trainer',
  namespace: 'ml',
  name: 'trainer',
  entityRef: 'component:default/chat',
  cluster: 'prod',
  pool: 'gpu-a100-mig',
  gpuModel: 'a100-40gb',
  sharingMode: 'mig',
  resourceName: 'nvidia.com/mig-3g.20gb',
  replicas: 3,
  perReplica: 1,
  // One of the 2 instances of its GPU; 3 of the GPU's 7 compute slices.
  gpuSharePerReplica: 0.5,
  computeSharePerReplica: 0.428571,
  vramMiBPerReplica: 18432,
  vramGuaranteed: true,
  migProfile: '3g.20gb',
  physicalGpus: 1.5,
  usdPerMonth: 3005.45,
  unitsHeld: 3,
  poolCost: {
    name: 'gpu-a100-mig',
    nodes: 1,
    instanceType: 'p4d.24xlarge',
    nodeUsdPerMonth: 16029.08,
    usdPerMonth: 16029.08,
    idleUsdPerMonth: 11019.99,
    capacityUnits: 16,
    allocatedUnits: 5,
    idleUnits: 11,
  },
  sources: ['apps/ml/trainer/deployment.yaml'],
};

export const chatAllocation: AllocationResponse = {
  entityRef: 'component:default/chat',
  allocations: [timeSliced, mps, mig],
  totals: { physicalGpus: 3.5, usdPerMonth: 4327.33 },
  revision: '0123456789abcdef',
};

export const pools: PoolsResponse = {
  revision: '0123456789abcdef',
  pools: [
    {
      name: 'gpu-l4-ts4',
      cluster: 'prod',
      gpuModel: 'l4',
      sharingMode: 'time-slicing',
      resourceName: 'nvidia.com/gpu.shared',
      instanceTypes: ['g6.xlarge', 'g6.2xlarge'],
      unitsPerGpu: 4,
      capacity: 16,
      allocated: 4,
      cost: timeSliced.poolCost!,
      consumers: [
        {
          id: 'ml/chat',
          entityRef: 'component:default/chat',
          units: 4,
          usdPerMonth: 587.5,
        },
      ],
    },
    {
      name: 'gpu-a100-mig',
      cluster: 'prod',
      gpuModel: 'a100-40gb',
      sharingMode: 'mig',
      resourceName: 'nvidia.com/mig-3g.20gb',
      instanceTypes: ['p4d.24xlarge'],
      unitsPerGpu: 2,
      capacity: 4,
      allocated: 5,
      migLayout: {
        memorySlices: 8,
        instances: [
          { profile: '3g.20gb', start: 0, memorySlices: 4 },
          { profile: '3g.20gb', start: 4, memorySlices: 4 },
        ],
      },
      // A hand-set limit below what the ledger holds: over capacity.
      cost: mig.poolCost!,
      consumers: [
        {
          id: 'ml/trainer',
          entityRef: 'component:default/chat',
          units: 3,
          usdPerMonth: 3005.45,
        },
        {
          id: 'research/bert',
          entityRef: 'component:default/bert',
          units: 2,
          usdPerMonth: 2003.64,
        },
      ],
    },
    {
      name: 'gpu-h100',
      cluster: 'prod',
      gpuModel: 'h100-80gb',
      sharingMode: 'exclusive',
      resourceName: 'nvidia.com/gpu',
      instanceTypes: ['p5.48xlarge'],
      unitsPerGpu: 1,
      allocated: 0,
      cost: {
        name: 'gpu-h100',
        nodes: 0,
        instanceType: 'p5.48xlarge',
        nodeUsdPerMonth: 40179.2,
        usdPerMonth: 0,
        idleUsdPerMonth: 0,
        capacityUnits: 0,
        allocatedUnits: 0,
        idleUnits: 0,
      },
      consumers: [],
    },
  ],
};

/**
 * `pools` with live data from `prod` (a p4d.24xlarge's GPU is $2,003.635
 * a month: 2 idle GPUs are $4,007.27) and one more pool on `dev`, whose
 * Prometheus cannot be reached; consumers carry their entity's owner.
 */
export const livePools: PoolsResponse = {
  revision: '0123456789abcdef',
  pools: [
    {
      ...pools.pools[0],
      consumers: [
        {
          ...pools.pools[0].consumers[0],
          owner: 'group:default/ml',
          utilizationStatus: 'idle',
        },
      ],
      utilization: {
        window: '7d',
        gpusSeen: 1,
        busyGpus: 0,
        idleGpus: 1,
        vramUsedMiB: 9216,
        vramTotalMiB: 23034,
        idleUsdPerMonth: 587.5,
      },
      drift: [],
    },
    {
      ...pools.pools[1],
      consumers: [
        {
          ...pools.pools[1].consumers[0],
          owner: 'group:default/ml',
          utilizationStatus: 'ok',
        },
        {
          ...pools.pools[1].consumers[1],
          owner: 'group:default/research',
          utilizationStatus: 'idle',
        },
      ],
      utilization: {
        window: '7d',
        gpusSeen: 3,
        busyGpus: 1,
        idleGpus: 2,
        vramUsedMiB: 61440,
        vramTotalMiB: 122880,
        idleUsdPerMonth: 4007.27,
      },
      drift: [
        {
          kind: 'mig-config-failed',
          object: 'Node/ip-10-0-3-4',
          message:
            'node ip-10-0-3-4: the MIG manager reports nvidia.com/mig.config.state=failed for config "all-3g.20gb"; its MIG instances are not as planned',
        },
      ],
    },
    {
      ...pools.pools[2],
      utilization: {
        window: '7d',
        gpusSeen: 0,
        busyGpus: 0,
        idleGpus: 0,
        idleUsdPerMonth: 0,
      },
      drift: [],
    },
    {
      name: 'gpu-t4-ts4',
      cluster: 'dev',
      gpuModel: 't4',
      sharingMode: 'time-slicing',
      resourceName: 'nvidia.com/gpu.shared',
      instanceTypes: ['g4dn.xlarge'],
      unitsPerGpu: 4,
      capacity: 8,
      allocated: 2,
      cost: {
        name: 'gpu-t4-ts4',
        nodes: 1,
        instanceType: 'g4dn.xlarge',
        nodeUsdPerMonth: 383.98,
        usdPerMonth: 383.98,
        idleUsdPerMonth: 191.99,
        capacityUnits: 4,
        allocatedUnits: 2,
        idleUnits: 2,
      },
      consumers: [
        {
          id: 'research/notebook',
          entityRef: 'component:default/notebook',
          owner: 'group:default/research',
          units: 1,
          usdPerMonth: 96,
        },
      ],
      otherConsumers: { count: 1, units: 1, usdPerMonth: 95.99 },
    },
  ],
  live: [
    {
      cluster: 'prod',
      source: 'prometheus',
      available: true,
      at: '2025-06-02T10:00:00.000Z',
    },
    {
      cluster: 'dev',
      source: 'prometheus',
      available: false,
      reason: 'Prometheus at prometheus.dev:9090 cannot be reached',
    },
    {
      cluster: 'prod',
      source: 'kubernetes',
      available: true,
      at: '2025-06-02T10:00:00.000Z',
    },
  ],
  notInGit: [
    {
      cluster: 'prod',
      findings: [
        {
          kind: 'nodepool-not-in-git',
          object: 'NodePool/gpu-l4-ts2',
          message:
            'NodePool gpu-l4-ts2 runs in the cluster but Git no longer has it: the sync does not prune it (its nodes still cost money)',
        },
      ],
    },
  ],
};
