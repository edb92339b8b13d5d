import type { PoolState, WorkloadState } from '@gpu-gitops/plugin-gpu-common';
import { poolsBySharedResource, workloadPool } from './sharedResourcePool';

const pool = (name: string, resourceName: string): PoolState => ({
  name,
  path: `clusters/dev/gpu/nodepools/${name}.yaml`,
  sharingMode: 'exclusive',
  resourceName,
  instanceTypes: [],
  capacityTypes: [],
});

const workload = (resourceName: string, selected?: string): WorkloadState => ({
  id: 'ml/w',
  namespace: 'ml',
  name: 'w',
  path: 'apps/ml/w/deployment.yaml',
  resourceName,
  replicas: 1,
  perReplica: 1,
  ...(selected ? { pool: selected } : {}),
});

describe('sharedResourcePool', () => {
  const bySharedResource = poolsBySharedResource([
    pool('whole-t4', 'nvidia.com/gpu'),
    pool('ts-t4', 'nvidia.com/gpu.shared'),
    pool('ts-t4-copy', 'nvidia.com/gpu.shared'),
    pool('mig-a100', 'nvidia.com/mig-1g.5gb'),
  ]);

  it('maps each shared resource name to the first pool serving it, never the generic GPU', () => {
    expect([...bySharedResource]).toEqual([
      ['nvidia.com/gpu.shared', 'ts-t4'],
      ['nvidia.com/mig-1g.5gb', 'mig-a100'],
    ]);
  });

  it('places a workload on the pool it selects, else on the one serving its shared resource', () => {
    expect(
      workloadPool(
        workload('nvidia.com/gpu.shared', 'other'),
        bySharedResource,
      ),
    ).toBe('other');
    expect(
      workloadPool(workload('nvidia.com/mig-1g.5gb'), bySharedResource),
    ).toBe('mig-a100');
    expect(workloadPool(workload('nvidia.com/gpu'), bySharedResource)).toBe(
      undefined,
    );
  });
});
