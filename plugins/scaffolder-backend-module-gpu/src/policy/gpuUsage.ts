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

/** Physical-GPU equivalents a workload found in the repository holds. */
export function workloadGpus(
  workload: WorkloadState,
  repoState: RepoState,
  catalog: GpuCatalog,
): number {
  const pool = repoState.pools.find(
    p =>
      p.name === workload.pool ||
      (!workload.pool && p.resourceName === workload.resourceName),
  );
  const unit = pool ? gpuShareOfUnit(pool, catalog) : 1;
  return workload.replicas * workload.perReplica * unit;
}

/**
 * GPUs an owner already holds in the repository, leaving out `excludeId`
 * (`<namespace>/<name>` of the workload this request creates or replaces).
 * `ownerOf` says who owns a workload (read from its manifests); workloads with
 * no known owner are not attributed to anyone.
 */
export function gpuUsageOfOwner(
  owner: string,
  repoState: RepoState,
  catalog: GpuCatalog,
  ownerOf: (workload: WorkloadState) => string | undefined,
  excludeId?: string,
): number {
  const ref = normalizeOwnerRef(owner);
  let total = 0;
  for (const workload of repoState.workloads) {
    if (workload.id === excludeId) continue;
    const workloadOwner = ownerOf(workload);
    if (!workloadOwner || normalizeOwnerRef(workloadOwner) !== ref) continue;
    total += workloadGpus(workload, repoState, catalog);
  }
  return total;
}
