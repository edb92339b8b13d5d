/**
 * Hand-built Plan fixtures for PR rendering tests: independent of the
 * planner, so a planner change cannot silently change what these tests check.
 */
import type {
  GpuRequest,
  Plan,
  PlanCost,
  PlanDecisions,
  SharingMode,
} from '@gpu-gitops/plugin-gpu-common';

export function requestFixture(mode: SharingMode, model = 't4'): GpuRequest {
  return {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: 'llm-serve', namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: {
        model,
        sharing: mode,
        replicas: 3,
        vramGiB: 3.5,
        gpusPerReplica: 1,
      },
      workload: { image: 'ghcr.io/acme/llm:1.2.3' },
      capacityTypes: ['on-demand'],
    },
  };
}

/**
 * One g4dn.xlarge ($383.98/month) holding ml/chat-assistant (1 slice) and
 * this request (3 slices): 38398 cents split 1:3 by the largest remainder.
 */
const sharedT4Cost: PlanCost = {
  usdPerMonth: 287.98,
  usdPerHour: 0.3945,
  marginalUsdPerMonth: 0,
  priceKnown: true,
  pool: {
    name: 'gpu-t4-ts4',
    nodes: 1,
    nodesBefore: 1,
    instanceType: 'g4dn.xlarge',
    nodeUsdPerMonth: 383.98,
    usdPerMonth: 383.98,
    idleUsdPerMonth: 0,
    capacityUnits: 4,
    allocatedUnits: 4,
    idleUnits: 0,
    shares: [
      { request: 'ml/chat-assistant', units: 1, usdPerMonth: 96 },
      { request: 'ml/llm-serve', units: 3, usdPerMonth: 287.98 },
    ],
  },
};

const decisions: PlanDecisions = {
  model: {
    choice: 't4',
    reason: 't4 as requested (NVIDIA Tesla T4, 15.0 GiB per GPU)',
    considered: [],
  },
  sharing: {
    choice: '4 time slices per GPU (3.7 GiB each, not isolated)',
    reason:
      'the slicing of reused pool gpu-t4-ts4: 3.7 GiB per slice covers the 3.5 GiB asked',
    considered: [],
  },
  pool: {
    choice: 'reuse pool gpu-t4-ts4',
    reason:
      'it fits capacity already paid for: adds $0.00/month (fits its 1 node)',
    considered: [
      {
        option: 'pool gpu-t4-ts4',
        chosen: true,
        reason: 'adds $0.00/month (fits its 1 node), 3.7 GiB per replica',
      },
      {
        option: 'pool gpu-t4-ts2',
        chosen: false,
        reason: 'allows on-demand, not spot the request asks for',
      },
      {
        option: 'new pool gpu-t4-ts4-2',
        chosen: false,
        reason:
          'adds $383.98/month (0 → 1 node): a pool that exists is reused first',
      },
    ],
  },
};

/** A new pool holding only this request: attributed = the unused part's complement. */
function newPoolCost(
  name: string,
  instanceType: string,
  nodes: number,
  nodeUsdPerMonth: number,
  units: number,
  capacityUnits: number,
  attributed: number,
  idle: number,
): PlanCost {
  const total = Math.round(nodes * nodeUsdPerMonth * 100) / 100;
  return {
    usdPerMonth: attributed,
    usdPerHour: Math.round((attributed / 730) * 10000) / 10000,
    marginalUsdPerMonth: total,
    priceKnown: true,
    pool: {
      name,
      nodes,
      nodesBefore: 0,
      instanceType,
      nodeUsdPerMonth,
      usdPerMonth: total,
      idleUsdPerMonth: idle,
      capacityUnits,
      allocatedUnits: units,
      idleUnits: capacityUnits - units,
      shares: [{ request: 'ml/llm-serve', units, usdPerMonth: attributed }],
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
  cost: sharedT4Cost,
  decisions,
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
    pool: {
      ...pool('gpu-t4-ts4', 't4', { 'nvidia.com/gpu.shared': 8 }, true),
      // Its nodes run an older config; this plan moves them to the new one.
      liveConfigName: 'ts-4',
    },
    sharing: {
      mode: 'time-slicing',
      slicesPerGpu: 4,
      deviceConfigName: 'ts-4-0a1b2c3d',
    },
    resourceName: 'nvidia.com/gpu.shared',
    perReplica: {
      vramGiB: 3.5,
      vramGuaranteed: false,
      memoryMiB: 3840,
      gpuShare: 0.25,
    },
    warnings: [
      'time-slicing does not isolate memory: a replica can use more than 3.5 GiB',
    ],
  };
}

export function mpsPlan(): Plan {
  return {
    ...base(requestFixture('mps')),
    pool: pool('gpu-t4-mps4', 't4', { 'nvidia.com/gpu.shared': 4 }),
    // 38398 cents, 3 of 4 clients: 28798.5 -> 28799 (earlier claimant), idle 9599.
    cost: newPoolCost(
      'gpu-t4-mps4',
      'g4dn.xlarge',
      1,
      383.98,
      3,
      4,
      287.99,
      95.99,
    ),
    sharing: {
      mode: 'mps',
      slicesPerGpu: 4,
      deviceConfigName: 'mps-4-99aa77bb',
      mpsPinnedMemoryMiB: 3840,
    },
    resourceName: 'nvidia.com/gpu.shared',
    perReplica: {
      vramGiB: 3.5,
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
      // The GPU's only 3g.20gb instance; 3 of its 7 compute slices.
      gpuShare: 1,
      computeShare: 3 / 7,
    },
    nodes: { expected: 1, slicesPerNode: 8, instanceType: 'p4d.24xlarge' },
    physicalGpus: 3,
    // 1602908 cents, 3 of 8 instances: 601090.5 -> 601091, idle 1001817.
    cost: newPoolCost(
      'gpu-a100-40gb-mig-3g.20gb',
      'p4d.24xlarge',
      1,
      16029.08,
      3,
      8,
      6010.91,
      10018.17,
    ),
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
    // 2 x 285576 cents, 6 of 8 GPUs: 428364, idle 142788.
    cost: newPoolCost(
      'gpu-t4',
      'g4dn.12xlarge',
      2,
      2855.76,
      6,
      8,
      4283.64,
      1427.88,
    ),
  };
}
