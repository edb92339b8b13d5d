/**
 * Hand-built Plan fixtures for PR rendering tests: independent of the
 * planner, so a planner change cannot silently change what these tests check.
 */
import type {
  GpuRequest,
  Plan,
  SharingMode,
} from '@gpu-gitops/plugin-gpu-common';

export function requestFixture(mode: SharingMode, model = 't4'): GpuRequest {
  return {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: 'llm-serve', namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model, sharing: mode, replicas: 3, vramGiB: 4, gpusPerReplica: 1 },
      workload: { image: 'ghcr.io/acme/llm:1.2.3' },
      capacityTypes: ['on-demand'],
    },
  };
}

const base = (
  request: GpuRequest,
): Omit<Plan, 'pool' | 'sharing' | 'resourceName' | 'perReplica'> => ({
  request,
  cluster: 'prod',
  leftPools: [],
  resourcePerReplica: 1,
  nodes: { expected: 1, slicesPerNode: 4, instanceType: 'g4dn.xlarge' },
  physicalGpus: 0.75,
  cost: { usdPerHour: 0.526, usdPerMonth: 383.98 },
  warnings: [],
  explanation: ['t4 is the cheapest model with 4 GiB per replica'],
});

const pool = (
  name: string,
  gpuModel: string,
  limits: Record<string, number>,
  reused = false,
) => ({
  name,
  gpuModel,
  instanceTypes: ['g4dn.xlarge', 'g4dn.2xlarge'],
  gpuCounts: [1],
  karpenterGpuNames: ['t4'],
  capacityTypes: ['on-demand' as const],
  reused,
  taint: {
    key: 'gpu.backstage.io/pool',
    value: name,
    effect: 'NoSchedule' as const,
  },
  labels: {},
  limits,
  ledger: [],
});

export function timeSlicingPlan(): Plan {
  return {
    ...base(requestFixture('time-slicing')),
    pool: pool('gpu-t4-ts4', 't4', { 'nvidia.com/gpu.shared': 8 }, true),
    sharing: {
      mode: 'time-slicing',
      slicesPerGpu: 4,
      deviceConfigName: 'ts-4-0a1b2c3d',
    },
    resourceName: 'nvidia.com/gpu.shared',
    perReplica: {
      vramGiB: 4,
      vramGuaranteed: false,
      memoryMiB: 3840,
      gpuShare: 0.25,
    },
    warnings: [
      'time-slicing does not isolate memory: a replica can use more than 4 GiB',
    ],
  };
}

export function mpsPlan(): Plan {
  return {
    ...base(requestFixture('mps')),
    pool: pool('gpu-t4-mps4', 't4', { 'nvidia.com/gpu.shared': 4 }),
    sharing: {
      mode: 'mps',
      slicesPerGpu: 4,
      deviceConfigName: 'mps-4-99aa77bb',
      mpsPinnedMemoryMiB: 3840,
    },
    resourceName: 'nvidia.com/gpu.shared',
    perReplica: {
      vramGiB: 4,
      vramGuaranteed: true,
      memoryMiB: 3840,
      gpuShare: 0.25,
    },
  };
}

export function migPlan(): Plan {
  const request = requestFixture('mig', 'a100-40gb');
  request.spec.gpu.vramGiB = 18;
  return {
    ...base(request),
    pool: {
      ...pool('gpu-a100-40gb-mig-3g.20gb', 'a100-40gb', {
        'nvidia.com/mig-3g.20gb': 16,
      }),
      instanceTypes: ['p4d.24xlarge'],
      gpuCounts: [8],
      karpenterGpuNames: ['a100'],
    },
    sharing: {
      mode: 'mig',
      migProfile: '3g.20gb',
      migLayout: { '3g.20gb': 1, '2g.10gb': 2 },
      migConfigName: 'custom-3g.20gb-2x2g.10gb',
    },
    resourceName: 'nvidia.com/mig-3g.20gb',
    perReplica: {
      vramGiB: 18,
      vramGuaranteed: true,
      memoryMiB: 19968,
      gpuShare: 3 / 7,
    },
    nodes: { expected: 1, slicesPerNode: 8, instanceType: 'p4d.24xlarge' },
    cost: { usdPerHour: 21.96, usdPerMonth: 16030.8 },
  };
}

export function exclusivePlan(): Plan {
  const request = requestFixture('exclusive');
  request.spec.gpu.gpusPerReplica = 2;
  request.spec.workload = {
    existing: { kind: 'StatefulSet', name: 'trainer' },
  };
  return {
    ...base(request),
    pool: pool('gpu-t4', 't4', { 'nvidia.com/gpu': 6 }),
    sharing: { mode: 'exclusive' },
    resourceName: 'nvidia.com/gpu',
    resourcePerReplica: 2,
    perReplica: {
      vramGiB: 4,
      vramGuaranteed: true,
      memoryMiB: 30720,
      gpuShare: 2,
    },
    nodes: { expected: 2, slicesPerNode: 4, instanceType: 'g4dn.12xlarge' },
    physicalGpus: 6,
  };
}
