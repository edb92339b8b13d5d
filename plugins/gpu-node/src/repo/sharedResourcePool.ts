/**
 * Where a GPU workload without a pool selector runs: on the pool that serves
 * the shared resource name it asks for (a time-slicing or MPS pool renames
 * `nvidia.com/gpu`, a MIG pool serves `nvidia.com/mig-<profile>`), so the
 * name alone picks the pool. The generic `nvidia.com/gpu` names no pool.
 * The one home of this rule: the whole-tree reader and the allocation index
 * (which places workloads across every cluster's pools) both apply it.
 */
import type { PoolState, WorkloadState } from '@gpu-gitops/plugin-gpu-common';

const GENERIC_GPU_RESOURCE = 'nvidia.com/gpu';

/**
 *  Pool names by the shared resource name they serve; the first pool in `pools` wins a name.
 *
 * @public
 */
export function poolsBySharedResource(
  pools: readonly PoolState[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const pool of pools) {
    if (
      pool.resourceName !== GENERIC_GPU_RESOURCE &&
      !out.has(pool.resourceName)
    ) {
      out.set(pool.resourceName, pool.name);
    }
  }
  return out;
}

/**
 *  The pool `workload` runs on: the one it selects, else the one serving its resource name.
 *
 * @public
 */
export function workloadPool(
  workload: WorkloadState,
  bySharedResource: ReadonlyMap<string, string>,
): string | undefined {
  return workload.pool ?? bySharedResource.get(workload.resourceName);
}
