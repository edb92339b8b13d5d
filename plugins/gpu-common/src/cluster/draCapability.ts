/**
 * Why a cluster cannot run DRA requests at all: its Kubernetes serves no
 * `resource.k8s.io/v1` below 1.34 (DRA GA), so the ResourceClaimTemplate the
 * product writes cannot be applied and the pods never schedule.
 */
import type { Unavailable } from './unavailable';
import {
  DRA_KUBERNETES_SINCE,
  formatMinor,
  kubernetesAtLeast,
} from './draSettings';
import type { ClusterProfile } from './types';

export function draUnavailable(
  cluster: Pick<ClusterProfile, 'name' | 'kubernetesVersion'>,
): Unavailable | undefined {
  const version = cluster.kubernetesVersion;
  if (
    version === undefined ||
    kubernetesAtLeast(version, DRA_KUBERNETES_SINCE)
  ) {
    return undefined;
  }
  const since = formatMinor(DRA_KUBERNETES_SINCE);
  return {
    path: 'spec.gpu.sharing',
    rule: 'dra-kubernetes-version',
    reason: `cluster ${cluster.name} cannot run DRA: it runs Kubernetes ${version} (profile kubernetesVersion), which does not serve resource.k8s.io/v1 (from ${since}), so its ResourceClaimTemplates cannot be applied; upgrade the cluster to ${since} or later, or ask for another sharing mode`,
  };
}
