import type { GpuCatalog, RepoState } from '@gpu-gitops/plugin-gpu-common';
import { gpuUsageOfOwner, workloadGpus } from './gpuUsage';

// A100-40GB MIG geometry (NVIDIA MIG user guide): 7 compute slices.
const catalog: GpuCatalog = {
  models: [
    {
      id: 'a100-40gb',
      displayName: 'NVIDIA A100-SXM4-40GB',
      memoryMiB: 40960,
      architecture: 'ampere',
      computeCapability: '8.0',
      mpsMaxReplicas: 48,
      mig: {
        memorySlices: 8,
        computeSlices: 7,
        pciDeviceIds: ['0x20B010DE'],
        profiles: [
          {
            name: '3g.20gb',
            memoryMiB: 19968,
            computeSlices: 3,
            memorySlices: 4,
            startSlots: [0, 4],
            maxCount: 2,
          },
        ],
      },
    },
  ],
  instanceTypes: [],
};

const repoState: RepoState = {
  pools: [
    {
      name: 'gpu-t4-ts4',
      path: 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
      gpuModel: 't4',
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu.shared',
      instanceTypes: ['g4dn.xlarge'],
      capacityTypes: ['on-demand'],
    },
    {
      name: 'gpu-a100-40gb-mig-3g.20gb',
      path: 'clusters/dev/gpu/nodepools/gpu-a100-40gb-mig-3g.20gb.yaml',
      gpuModel: 'a100-40gb',
      sharingMode: 'mig',
      migProfile: '3g.20gb',
      resourceName: 'nvidia.com/mig-3g.20gb',
      instanceTypes: ['p4d.24xlarge'],
      capacityTypes: ['on-demand'],
    },
  ],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [
    {
      id: 'ml/chat',
      namespace: 'ml',
      name: 'chat',
      path: 'apps/ml/chat/deployment.yaml',
      pool: 'gpu-t4-ts4',
      resourceName: 'nvidia.com/gpu.shared',
      replicas: 3,
      perReplica: 1,
    },
    {
      id: 'ml/train',
      namespace: 'ml',
      name: 'train',
      path: 'apps/ml/train/deployment.yaml',
      pool: 'gpu-a100-40gb-mig-3g.20gb',
      resourceName: 'nvidia.com/mig-3g.20gb',
      replicas: 7,
      perReplica: 1,
    },
    {
      id: 'web/render',
      namespace: 'web',
      name: 'render',
      path: 'apps/web/render/deployment.yaml',
      pool: 'gpu-t4-ts4',
      resourceName: 'nvidia.com/gpu.shared',
      replicas: 4,
      perReplica: 1,
    },
  ],
};

const owners: Record<string, string> = {
  'ml/chat': 'group:default/ml-platform',
  'ml/train': 'ml-platform',
  'web/render': 'group:default/web',
};

describe('gpu usage from the repository state', () => {
  it('counts time-sliced replicas as fractions of a GPU and MIG by compute share', () => {
    expect(workloadGpus(repoState.workloads[0], repoState, catalog)).toBe(0.75);
    expect(
      workloadGpus(repoState.workloads[1], repoState, catalog),
    ).toBeCloseTo(3);
  });

  it('sums an owner’s workloads and leaves out the one being replaced', () => {
    const ownerOf = (w: { id: string }) => owners[w.id];
    expect(
      gpuUsageOfOwner('ml-platform', repoState, catalog, ownerOf),
    ).toBeCloseTo(3.75);
    expect(
      gpuUsageOfOwner('ml-platform', repoState, catalog, ownerOf, 'ml/chat'),
    ).toBeCloseTo(3);
    expect(gpuUsageOfOwner('web', repoState, catalog, ownerOf)).toBe(1);
  });
});
