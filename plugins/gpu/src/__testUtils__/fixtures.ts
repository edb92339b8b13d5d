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

/** Four replicas time-sliced 4 ways on L4 (22.3 GiB): VRAM is NOT isolated. */
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
  vramMiBPerReplica: 5709,
  vramGuaranteed: false,
  physicalGpus: 1,
  usdPerMonth: 584.4,
  sources: ['apps/ml/chat/deployment.yaml'],
};

/** Two MPS clients on an A10G with a pinned 8 GiB each. */
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
  vramMiBPerReplica: 8192,
  vramGuaranteed: true,
  physicalGpus: 1,
  usdPerMonth: 737.3,
  sources: ['apps/ml/embedder/deployment.yaml'],
};

/** Three replicas on A100-40GB MIG 3g.20gb slices. */
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
  gpuSharePerReplica: 3 / 7,
  vramMiBPerReplica: 19968,
  vramGuaranteed: true,
  migProfile: '3g.20gb',
  physicalGpus: 1.5,
  usdPerMonth: 3000.75,
  sources: ['apps/ml/trainer/deployment.yaml'],
};

export const chatAllocation: AllocationResponse = {
  entityRef: 'component:default/chat',
  allocations: [timeSliced, mps, mig],
  totals: { physicalGpus: 3.5, usdPerMonth: 4322.45 },
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
      consumers: [
        { id: 'ml/chat', entityRef: 'component:default/chat', units: 4 },
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
      consumers: [
        { id: 'ml/trainer', entityRef: 'component:default/chat', units: 3 },
        { id: 'research/bert', entityRef: 'component:default/bert', units: 2 },
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
      consumers: [],
    },
  ],
};
