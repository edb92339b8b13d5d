/**
 * Small hand-written catalog and request builders shared by the planner
 * tests. Numbers are chosen so the expected plans can be computed by hand.
 */
import type { GpuCatalog } from '../../catalog/types';
import type { ClusterProfile } from '../../cluster/types';
import { resolveClusterProfile } from '../../cluster/schema';
import type { GpuRequest } from '../../request/types';

export const fixtureCatalog: GpuCatalog = {
  models: [
    {
      id: 't4',
      displayName: 'NVIDIA T4',
      memoryMiB: 16384,
      architecture: 'turing',
      computeCapability: '7.5',
      mpsMaxReplicas: 48,
    },
    {
      id: 'v100',
      displayName: 'NVIDIA V100',
      memoryMiB: 16384,
      architecture: 'volta',
      computeCapability: '7.0',
      mpsMaxReplicas: 16,
    },
    {
      id: 'a100-80gb',
      displayName: 'NVIDIA A100-SXM4-80GB',
      memoryMiB: 81920,
      architecture: 'ampere',
      computeCapability: '8.0',
      mpsMaxReplicas: 48,
      mig: {
        memorySlices: 8,
        computeSlices: 7,
        pciDeviceIds: ['0x20B210DE', '0x20B510DE'],
        profiles: [
          {
            name: '1g.10gb',
            memoryMiB: 9728,
            computeSlices: 1,
            memorySlices: 1,
            startSlots: [0, 1, 2, 3, 4, 5, 6],
            maxCount: 7,
          },
          {
            name: '1g.10gb+me',
            memoryMiB: 9728,
            computeSlices: 1,
            memorySlices: 1,
            startSlots: [0, 1, 2, 3, 4, 5, 6],
            maxCount: 1,
          },
          {
            name: '1g.20gb',
            memoryMiB: 19968,
            computeSlices: 1,
            memorySlices: 2,
            startSlots: [0, 2, 4, 6],
            maxCount: 4,
          },
          {
            name: '2g.20gb',
            memoryMiB: 19968,
            computeSlices: 2,
            memorySlices: 2,
            startSlots: [0, 2, 4],
            maxCount: 3,
          },
          {
            name: '3g.40gb',
            memoryMiB: 40192,
            computeSlices: 3,
            memorySlices: 4,
            startSlots: [0, 4],
            maxCount: 2,
          },
          {
            name: '4g.40gb',
            memoryMiB: 40192,
            computeSlices: 4,
            memorySlices: 4,
            startSlots: [0],
            maxCount: 1,
          },
          {
            name: '7g.80gb',
            memoryMiB: 80896,
            computeSlices: 7,
            memorySlices: 8,
            startSlots: [0],
            maxCount: 1,
          },
        ],
      },
    },
  ],
  instanceTypes: [
    {
      name: 't4-x1',
      family: 't4f',
      provider: 'aws',
      gpuModel: 't4',
      gpusPerNode: 1,
      gpuMemoryMiB: 16384,
      vcpu: 4,
      memoryMiB: 16384,
      onDemandUsdPerHour: 0.5,
      karpenterGpuName: 't4',
    },
    {
      name: 't4-x4',
      family: 't4f',
      provider: 'aws',
      gpuModel: 't4',
      gpusPerNode: 4,
      gpuMemoryMiB: 16384,
      vcpu: 48,
      memoryMiB: 196608,
      onDemandUsdPerHour: 1.8,
      karpenterGpuName: 't4',
    },
    {
      name: 't4-fat',
      family: 't4f',
      provider: 'aws',
      gpuModel: 't4',
      gpusPerNode: 1,
      gpuMemoryMiB: 16384,
      vcpu: 64,
      memoryMiB: 262144,
      onDemandUsdPerHour: 1.0,
      karpenterGpuName: 't4',
    },
    {
      name: 'v100-x1',
      family: 'v100f',
      provider: 'aws',
      gpuModel: 'v100',
      gpusPerNode: 1,
      gpuMemoryMiB: 16384,
      vcpu: 8,
      memoryMiB: 62464,
      onDemandUsdPerHour: 3,
      karpenterGpuName: 'v100',
    },
    {
      name: 'a100-x8',
      family: 'a100f',
      provider: 'aws',
      gpuModel: 'a100-80gb',
      gpusPerNode: 8,
      gpuMemoryMiB: 81920,
      vcpu: 96,
      memoryMiB: 1179648,
      onDemandUsdPerHour: 40,
      karpenterGpuName: 'a100',
    },
    {
      name: 'a100-block',
      family: 'a100f',
      provider: 'aws',
      gpuModel: 'a100-80gb',
      gpusPerNode: 8,
      gpuMemoryMiB: 81920,
      vcpu: 96,
      memoryMiB: 1179648,
      onDemandUsdPerHour: 0,
      karpenterGpuName: 'a100',
    },
    {
      name: 'Standard_T4',
      family: 'nct4',
      provider: 'azure',
      gpuModel: 't4',
      gpusPerNode: 1,
      gpuMemoryMiB: 16384,
      vcpu: 4,
      memoryMiB: 28672,
      onDemandUsdPerHour: 0.6,
    },
    {
      name: 'rack-t4',
      family: 'onprem',
      provider: 'static',
      gpuModel: 't4',
      gpusPerNode: 2,
      gpuMemoryMiB: 16384,
      vcpu: 32,
      memoryMiB: 131072,
      onDemandUsdPerHour: 0,
    },
  ],
};

export const awsCluster: ClusterProfile = resolveClusterProfile();

export function cluster(override: Record<string, unknown>): ClusterProfile {
  return resolveClusterProfile(override);
}

export function gpuRequest(
  gpu: Partial<GpuRequest['spec']['gpu']>,
  extra: {
    capacityTypes?: GpuRequest['spec']['capacityTypes'];
    name?: string;
  } = {},
): GpuRequest {
  return {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: extra.name ?? 'llm', namespace: 'ml-team' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: {
        model: 't4',
        sharing: 'exclusive',
        replicas: 1,
        vramGiB: 8,
        gpusPerReplica: 1,
        ...gpu,
      },
      workload: { image: 'ghcr.io/acme/llm:1.0' },
      capacityTypes: extra.capacityTypes ?? ['on-demand'],
    },
  };
}
