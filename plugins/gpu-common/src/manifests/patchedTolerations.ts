import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { poolNodeLabel } from '../providers/poolNodeLabel';
import { gpuAnnotationKeys } from './metadataKeys';
import type { PodPlacement } from './podPlacement';
import { tolerates } from './tolerations';
import type { WorkloadView } from './workloadShape';

/**
 * The pod's `tolerations` in the workload patch, or undefined when the
 * workload's own already tolerate the plan's pool. That list has no merge key
 * in the Kubernetes OpenAPI, so a patch replaces it: it carries the
 * workload's own tolerations, in their order, without those this request
 * added before for its previous pool, followed by the pool's it misses.
 */
export function patchedTolerations(
  plan: Plan,
  cluster: ClusterProfile,
  current: WorkloadView,
  placement: PodPlacement,
): Record<string, unknown>[] | undefined {
  const previousPool = requestsPreviousPool(plan, cluster, current);
  const kept = current.tolerations.filter(
    t =>
      previousPool === undefined ||
      previousPool === plan.pool.name ||
      !(t.key === cluster.gpuTaintKey && t.value === previousPool),
  );
  const missing = placement.tolerations.filter(
    taint => !kept.some(t => tolerates(t, taint)),
  );
  if (missing.length === 0 && kept.length === current.tolerations.length) {
    return undefined;
  }
  return [...kept, ...missing];
}

/** The pool this request pinned the workload to before, when the workload carries its request annotation. */
function requestsPreviousPool(
  plan: Plan,
  cluster: ClusterProfile,
  current: WorkloadView,
): string | undefined {
  const { name, namespace } = plan.request.metadata;
  const keys = gpuAnnotationKeys(cluster.labelDomain);
  return current.podAnnotations[keys.request] === `${namespace}/${name}`
    ? current.nodeSelector[poolNodeLabel(cluster)]
    : undefined;
}
