import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { WELL_KNOWN_KEYS } from './metadata-keys';
import { gpuPodSpec } from './gpu-pod-spec';
import { podPlacement } from './pod-placement';
import type { KubernetesObject } from './types';

export interface WorkloadPatchOptions {
  /**
   * Name of the container that uses the GPU. Strategic merge patches match
   * containers by name, and a name that matches none ADDS an (image-less,
   * invalid) container, so callers that have read the workload should pass
   * its first container's name. Default: the workload's own name, the usual
   * convention for single-container workloads (and what `buildDeployment`
   * uses).
   */
  containerName?: string;
}

/**
 * A strategic-merge patch (Kustomize `patches:`) that moves an existing
 * Deployment / StatefulSet onto the plan's pool: nodeSelector, tolerations,
 * GPU limits, replicas, our annotations and `backstage.io/kubernetes-id`.
 *
 * Caveat: `tolerations` has no merge key, so the patch REPLACES the
 * workload's tolerations with the pool's; `nodeSelector` and `limits` merge.
 */
export function buildWorkloadPatch(
  plan: Plan,
  cluster: ClusterProfile,
  options: WorkloadPatchOptions = {},
): KubernetesObject {
  const existing = plan.request.spec.workload.existing;
  const { name: requestName, namespace } = plan.request.metadata;
  if (!existing) {
    throw new Error(
      `Plan for ${namespace}/${requestName} has no existing workload to patch`,
    );
  }
  const placement = podPlacement(plan, cluster);
  const isDra = plan.sharing.mode === 'dra';
  const podSpec = gpuPodSpec({
    placement,
    isDra,
    container: { name: options.containerName ?? existing.name },
    requestName,
  });
  return {
    apiVersion: 'apps/v1',
    kind: existing.kind,
    metadata: {
      name: existing.name,
      namespace,
      labels: { [WELL_KNOWN_KEYS.backstageKubernetesId]: requestName },
      annotations: { ...placement.annotations },
    },
    spec: {
      replicas: plan.request.spec.gpu.replicas,
      template: {
        metadata: { annotations: { ...placement.annotations } },
        spec: podSpec,
      },
    },
  };
}
