import type { IndexSnapshot } from '../repoIndex/indexSnapshot';

/**
 * Workload id (`<namespace>/<name>`) -> the id of the stored request that
 * gives it GPUs, when they differ: a request for an existing workload may
 * carry another name, and the pool's ledger books its capacity under the
 * request's. A workload without an entry is booked under its own id (a new
 * workload takes its request's name).
 */
export function requestsByWorkload(
  snapshot: IndexSnapshot,
): Map<string, string> {
  const byWorkload = new Map<string, string>();
  for (const [id, { request }] of snapshot.requests) {
    const existing = request.spec.workload.existing;
    if (!existing) continue;
    const workloadId = `${request.metadata.namespace}/${existing.name}`;
    if (workloadId !== id) byWorkload.set(workloadId, id);
  }
  return byWorkload;
}
