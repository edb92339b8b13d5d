import { gpuShareOfUnit, type RepoState } from '@gpu-gitops/plugin-gpu-common';
import { gpuUsageOfOwner } from './gpuUsage';

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
      migConfigName: 'all-3g.20gb',
      resourceName: 'nvidia.com/mig-3g.20gb',
      instanceTypes: ['p4d.24xlarge'],
      capacityTypes: ['on-demand'],
    },
  ],
  devicePluginConfigs: {},
  // mig-parted's A100 layout: 2 × 3g.20gb on each GPU.
  migConfigs: {
    'all-3g.20gb': [
      { devices: 'all', 'mig-enabled': true, 'mig-devices': { '3g.20gb': 2 } },
    ],
  },
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
  it('counts a unit as the planner does: a time slice 1/4, a MIG instance one of its GPU’s instances', () => {
    const [timeSliced, mig] = repoState.pools;
    expect(gpuShareOfUnit(timeSliced, repoState)).toBe(0.25);
    // Not its 3/7 of the compute: the GPU's other instance is someone else's.
    expect(gpuShareOfUnit(mig, repoState)).toBe(0.5);
    // The layout not in the repository: a whole GPU, never under-counted.
    expect(gpuShareOfUnit(mig, { ...repoState, migConfigs: {} })).toBe(1);
  });

  it('sums an owner’s workloads on the cluster and leaves out the one being replaced', () => {
    const ownerOf = (id: string) => owners[id];
    const defaultCluster = { state: repoState, isDefaultCluster: true };
    // chat 3 × 1/4 + train 7 × 1/2 + unplaced 1 × 2 whole GPUs; not elsewhere.
    expect(gpuUsageOfOwner('ml-platform', defaultCluster, ownerOf)).toBe(6.25);
    expect(
      gpuUsageOfOwner('ml-platform', defaultCluster, ownerOf, 'ml/chat'),
    ).toBe(5.5);
    // Another cluster with the same pools does not run the unplaced workload.
    expect(
      gpuUsageOfOwner(
        'ml-platform',
        { state: repoState, isDefaultCluster: false },
        ownerOf,
      ),
    ).toBe(4.25);
    expect(gpuUsageOfOwner('web', defaultCluster, ownerOf)).toBe(1);
  });
});

describe('gpu usage of a workload the readers placed on no pool', () => {
  it('counts it as whole GPUs, never on a pool that merely serves its resource name', () => {
    // Its pods land on no pool (a taint it does not tolerate, say): the readers left `pool` unset.
    const pending = {
      id: 'ml/pending',
      namespace: 'ml',
      name: 'pending',
      path: 'apps/ml/pending/deployment.yaml',
      resourceName: 'nvidia.com/gpu.shared',
      replicas: 2,
      perReplica: 1,
    };
    const state = { ...repoState, workloads: [pending] };
    expect(
      gpuUsageOfOwner(
        'ml-platform',
        { state, isDefaultCluster: true },
        () => 'ml-platform',
      ),
    ).toBe(2);
  });
});
