import type { GpuCatalog } from '../catalog/types';
import { draPoolIsStaticFor } from '../cluster/draAutoscaling';
import type { ClusterProfile } from '../cluster/types';
import type { CatalogIndex } from './catalogIndex';
import { machinesOfPool } from './poolMachines';
import type { PoolSizing } from './poolLimits';
import { unitsPerGpuOf } from '../capacity/poolUnits';
import type { PoolState, RepoState } from './types';

/**
 * How an existing pool is sized, read from what the repository says about it:
 * units per GPU from its sharing (time-slicing / MPS replicas, the MIG
 * config's instances of its profile, 1 for whole GPUs) and GPUs per node from
 * the machines it may launch (poolMachines.ts), of `cluster`'s provider
 * when given. A DRA pool is static unless `cluster`'s Karpenter launches
 * nodes for claims (cluster/draAutoscaling.ts).
 *
 * @public
 */
export function sizingOfPool(
  pool: PoolState,
  catalog: GpuCatalog | CatalogIndex,
  repoState: RepoState | undefined,
  cluster?: Pick<
    ClusterProfile,
    | 'provider'
    | 'clusterApi'
    | 'name'
    | 'karpenterVersion'
    | 'kubernetesVersion'
    | 'dra'
  >,
): PoolSizing {
  return {
    resourceName: pool.resourceName,
    unitsPerGpu: unitsPerGpuOf(pool, repoState),
    gpuCounts: machinesOfPool(pool, catalog, cluster).map(t => t.gpusPerNode),
    staticPool: cluster
      ? draPoolIsStaticFor(pool, cluster)
      : pool.sharingMode === 'dra',
  };
}
