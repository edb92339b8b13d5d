import type { GpuCatalog, RepoState } from '@gpu-gitops/plugin-gpu-common';
import { gpuShareOfUnit, gpuUsageOfOwner } from './gpuUsage';

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
      // Its node selector names a pool of another cluster: counted there.
      id: 'ml/elsewhere',
      namespace: 'ml',
      name: 'elsewhere',
      path: 'apps/ml/elsewhere/deployment.yaml',
      pool: 'gpu-l4-ts2',
      resourceName: 'nvidia.com/gpu.shared',
      replicas: 2,
      perReplica: 1,
    },
    {
      // A whole GPU and no pool: it runs on the default cluster.
      id: 'ml/unplaced',
      namespace: 'ml',
      name: 'unplaced',
      path: 'apps/ml/unplaced/deployment.yaml',
      resourceName: 'nvidia.com/gpu',
      replicas: 1,
      perReplica: 2,
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
  'ml/elsewhere': 'ml-platform',
  'ml/unplaced': 'ml-platform',
  'web/render': 'group:default/web',
};

describe('gpu usage from the repository state', () => {
  it('counts a time slice as a fraction of a GPU and a MIG instance by its compute share', () => {
    const [timeSliced, mig] = repoState.pools;
    expect(gpuShareOfUnit(timeSliced, catalog)).toBe(0.25);
    expect(gpuShareOfUnit(mig, catalog)).toBeCloseTo(3 / 7);
  });

  it('sums an owner’s workloads on the cluster and leaves out the one being replaced', () => {
    const ownerOf = (id: string) => owners[id];
    const defaultCluster = { state: repoState, isDefaultCluster: true };
    // chat 3 × 1/4 + train 7 × 3/7 + unplaced 1 × 2 whole GPUs; not elsewhere.
    expect(
      gpuUsageOfOwner('ml-platform', defaultCluster, catalog, ownerOf),
    ).toBeCloseTo(5.75);
    expect(
      gpuUsageOfOwner(
        'ml-platform',
        defaultCluster,
        catalog,
        ownerOf,
        'ml/chat',
      ),
    ).toBeCloseTo(5);
    // Another cluster with the same pools does not run the unplaced workload.
    expect(
      gpuUsageOfOwner(
        'ml-platform',
        { state: repoState, isDefaultCluster: false },
        catalog,
        ownerOf,
      ),
    ).toBeCloseTo(3.75);
    expect(gpuUsageOfOwner('web', defaultCluster, catalog, ownerOf)).toBe(1);
  });
});
