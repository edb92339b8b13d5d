import type {
  RepositoryWorkload,
  WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';

/**
 * The existing workload a request names, as the index knows it: the one
 * workload object of that kind and name deployed to the request's
 * namespace. When several overlays deploy it there, the one with a folder
 * named after the cluster, the same rule the actions follow
 * (gpu-node `resolveExistingWorkload`). Undefined when the index knows none,
 * or cannot tell which one (the action then says why when it runs).
 */
export function findExistingWorkload(
  snapshot: IndexSnapshot,
  wanted: { kind: WorkloadKind; name: string; namespace: string },
  cluster: string,
): RepositoryWorkload | undefined {
  const candidates = (
    snapshot.workloadObjectsByName.get(wanted.name) ?? []
  ).filter(w => w.kind === wanted.kind && w.namespace === wanted.namespace);
  if (candidates.length <= 1) return candidates[0];
  const named = candidates.filter(w =>
    (w.overlay ?? '').split('/').includes(cluster),
  );
  return named.length === 1 ? named[0] : undefined;
}
