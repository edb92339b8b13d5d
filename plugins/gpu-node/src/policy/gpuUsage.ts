import {
  gpuShareOfUnit,
  type PoolState,
  type RepoState,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import { normalizeOwnerRef } from './gpuPolicy';

/**
 * The pool of `cluster` a workload is counted on: where its pods land, as
 * the repository readers place it (gpu-common `placedWorkload`); a workload
 * that lands nowhere holds no pool's GPUs.
 */
function poolOf(
  workload: WorkloadState,
  cluster: RepoState,
): PoolState | undefined {
  return cluster.pools.find(p => p.name === workload.pool);
}

/**
 * Physical GPUs a workload holds on its pool, as the planner counts a
 * request's `physicalGpus` (a whole GPU per unit without a pool).
 */
export function workloadGpus(
  workload: WorkloadState,
  pool: PoolState | undefined,
  state: RepoState,
): number {
  const unit = pool ? gpuShareOfUnit(pool, state) : 1;
  return workload.replicas * workload.perReplica * unit;
}

/**
 *  Where the quota is counted: one cluster's pools, and whether it is the default cluster.
 *
 * @public
 */
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
    total += workloadGpus(workload, pool, scope.state);
  }
  return total;
}
