import type { PoolState, RepoState } from '../planner/types';
import {
  gpuShareOfUnit,
  gpuShareOfUnits,
  liveMigLayout,
  poolCapacityUnits,
  unitsPerGpuOf,
} from './poolUnits';

function pool(over: Partial<PoolState>): PoolState {
  return {
    name: 'gpu-pool',
    path: 'clusters/default/gpu/nodepools/gpu-pool.yaml',
    sharingMode: 'exclusive',
    resourceName: 'nvidia.com/gpu',
    instanceTypes: ['p4d.24xlarge'],
    capacityTypes: ['on-demand'],
    ...over,
  };
}

function repo(migConfigs: Record<string, unknown> = {}): RepoState {
  return { pools: [], devicePluginConfigs: {}, migConfigs, workloads: [] };
}

const MIXED = {
  'all-mixed': [
    { devices: 'all', 'mig-enabled': false },
    {
      devices: 'all',
      'mig-enabled': true,
      'mig-devices': { '3g.40gb': 1, '2g.20gb': 1, '1g.10gb': 2 },
    },
  ],
};

describe('units of a pool and the share of a GPU one gives', () => {
  it('counts the DRA driver’s consumable shares of a DRA pool, a whole-GPU DRA pool as 1', () => {
    const shared = pool({
      sharingMode: 'dra',
      resourceName: 'gpu.nvidia.com',
      slicesPerGpu: 4,
    });
    expect(unitsPerGpuOf(shared, repo())).toBe(4);
    expect(
      unitsPerGpuOf(
        pool({ sharingMode: 'dra', resourceName: 'gpu.nvidia.com' }),
        repo(),
      ),
    ).toBe(1);
  });

  it('counts time slices and MPS clients from the pool, whole GPUs as 1', () => {
    const sliced = pool({ sharingMode: 'time-slicing', slicesPerGpu: 4 });
    expect(unitsPerGpuOf(sliced, repo())).toBe(4);
    expect(gpuShareOfUnit(sliced, repo())).toBe(0.25);
    expect(
      unitsPerGpuOf(pool({ sharingMode: 'mps', slicesPerGpu: 3 }), undefined),
    ).toBe(3);
    expect(unitsPerGpuOf(pool({ sharingMode: 'time-slicing' }), repo())).toBe(
      1,
    );
    expect(gpuShareOfUnit(pool({}), repo())).toBe(1);
    expect(gpuShareOfUnit(pool({ sharingMode: 'dra' }), repo())).toBe(1);
    expect(gpuShareOfUnits(7)).toBeCloseTo(1 / 7, 12);
  });

  it('counts MIG instances of the pool profile from its live layout', () => {
    const mig = pool({
      sharingMode: 'mig',
      migProfile: '1g.10gb',
      migConfigName: 'all-mixed',
    });
    expect(liveMigLayout(mig, repo(MIXED))).toEqual({
      '3g.40gb': 1,
      '2g.20gb': 1,
      '1g.10gb': 2,
    });
    expect(unitsPerGpuOf(mig, repo(MIXED))).toBe(2);
    expect(gpuShareOfUnit(mig, repo(MIXED))).toBe(0.5);
    // No profile (the `single` strategy advertises every instance alike).
    const anyProfile = { ...mig, migProfile: undefined };
    expect(unitsPerGpuOf(anyProfile, repo(MIXED))).toBe(4);
  });

  it('counts a whole GPU a unit when the MIG layout is not in the repository, so a quota is never under-counted', () => {
    const mig = pool({
      sharingMode: 'mig',
      migProfile: '1g.10gb',
      migConfigName: 'gone',
    });
    expect(liveMigLayout(mig, repo(MIXED))).toBeUndefined();
    expect(gpuShareOfUnit(mig, repo(MIXED))).toBe(1);
    expect(gpuShareOfUnit(mig, undefined)).toBe(1);
  });

  it('gives a pool capacity in units from its physical GPU limit, else its own resource limit', () => {
    const sliced = pool({
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu.shared',
    });
    expect(
      poolCapacityUnits({ ...sliced, limits: { 'nvidia.com/gpu': 2 } }, repo()),
    ).toBe(8);
    expect(
      poolCapacityUnits(
        { ...sliced, limits: { 'nvidia.com/gpu.shared': 6 } },
        repo(),
      ),
    ).toBe(6);
    expect(poolCapacityUnits({ ...sliced, limit: 5 }, repo())).toBe(5);
    expect(poolCapacityUnits(sliced, repo())).toBeUndefined();
  });
});
