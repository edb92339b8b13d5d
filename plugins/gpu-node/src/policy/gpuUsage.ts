import type {
  GpuCatalog,
  PoolState,
  RepoState,
  WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import { normalizeOwnerRef } from './gpuPolicy';

/**
 * Physical-GPU equivalents one unit of a pool's resource stands for: a whole
 * GPU when exclusive, 1/slices when time-sliced or MPS, and the compute share
 * of the MIG profile (3g.40gb on a 7-slice GPU = 3/7), as the planner counts it.
 */
export function gpuShareOfUnit(pool: PoolState, catalog: GpuCatalog): number {
  switch (pool.sharingMode) {
    case 'time-slicing':
    case 'mps':
      return pool.slicesPerGpu && pool.slicesPerGpu > 0
        ? 1 / pool.slicesPerGpu
        : 1;
    case 'mig': {
      const geometry = catalog.models.find(m => m.id === pool.gpuModel)?.mig;
      const profile = geometry?.profiles.find(p => p.name === pool.migProfile);
      // Unknown geometry: count a whole GPU rather than under-count a quota.
      return geometry && profile
        ? profile.computeSlices / geometry.computeSlices
        : 1;
    }
    default:
      return 1;
  }
}

/**
 * The pool of `cluster` a workload runs on: the pool its node selector names,
 * or (none named) the pool advertising its shared resource, as the
 * repository readers resolve it.
 */
function poolOf(
  workload: WorkloadState,
  cluster: RepoState,
): PoolState | undefined {
  return cluster.pools.find(
    p =>
      p.name === workload.pool ||
      (!workload.pool && p.resourceName === workload.resourceName),
  );
}

/** Physical-GPU equivalents a workload holds on its pool (a whole GPU per unit without one). */
export function workloadGpus(
  workload: WorkloadState,
  pool: PoolState | undefined,
  catalog: GpuCatalog,
): number {
  const unit = pool ? gpuShareOfUnit(pool, catalog) : 1;
  return workload.replicas * workload.perReplica * unit;
}

/** Where the quota is counted: one cluster's pools, and whether it is the default cluster. */
export interface QuotaScope {
  /**
   * The cluster's pools, and the GPU workloads of the whole repository
   * (their folders are not per cluster: a workload is on this cluster when
   * its pool is one of these pools).
   */
  state: RepoState;
  /**
   * True for the default cluster, which also counts the workloads placed on
   * no pool (a plain `nvidia.com/gpu` limit and no node selector: they run
   * wherever the default cluster schedules them).
   */
  isDefaultCluster: boolean;
}

/**
 * GPUs an owner already holds on one cluster, leaving out `excludeId`
 * (`<namespace>/<name>` of the workload this request creates or replaces, so
 * re-running a request never counts it twice). `ownerOf` says who owns a
 * workload (the owner of its stored GpuRequest); workloads with no known
 * owner are not attributed to anyone. A workload whose node selector names a
 * pool of another cluster counts there, not here.
 */
export function gpuUsageOfOwner(
  owner: string,
  scope: QuotaScope,
  catalog: GpuCatalog,
  ownerOf: (workloadId: string) => string | undefined,
  excludeId?: string,
): number {
  const ref = normalizeOwnerRef(owner);
  let total = 0;
  for (const workload of scope.state.workloads) {
    if (workload.id === excludeId) continue;
    const workloadOwner = ownerOf(workload.id);
    if (!workloadOwner || normalizeOwnerRef(workloadOwner) !== ref) continue;
    const pool = poolOf(workload, scope.state);
    const placedElsewhere = !pool && workload.pool !== undefined;
    if (placedElsewhere || (!pool && !scope.isDefaultCluster)) continue;
    total += workloadGpus(workload, pool, catalog);
  }
  return total;
}
