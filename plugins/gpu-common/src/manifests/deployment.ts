import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import { gpuPodSpec } from './gpuPodSpec';
import { podPlacement } from './podPlacement';
import type { KubernetesObject } from './types';

/**
 * Deployment `apps/v1` for a new GPU workload (`spec.workload.image`). The
 * single container is named after the workload. `backstage.io/kubernetes-id`
 * sits on the Deployment and its pods so the Backstage Kubernetes plugin and
 * our allocation backend map them to the component.
 */
export function buildDeployment(
  plan: Plan,
  cluster: ClusterProfile,
): KubernetesObject {
  const { name, namespace } = plan.request.metadata;
  const image = plan.request.spec.workload.image;
  if (!image) {
    throw new Error(`Plan for ${namespace}/${name} has no workload image`);
  }
  const placement = podPlacement(plan, cluster);
  const selectorLabels = { [WELL_KNOWN_KEYS.appName]: name };
  const labels = {
    ...selectorLabels,
    [WELL_KNOWN_KEYS.backstageKubernetesId]: name,
    [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY,
  };
  const isDra = plan.sharing.mode === 'dra';

  const podSpec = gpuPodSpec({
    placement,
    isDra,
    container: { name, image },
    requestName: name,
  });

  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      labels,
      annotations: { ...placement.annotations },
    },
    spec: {
      replicas: plan.request.spec.gpu.replicas,
      selector: { matchLabels: selectorLabels },
      template: {
        metadata: {
          labels: {
            ...selectorLabels,
            [WELL_KNOWN_KEYS.backstageKubernetesId]: name,
          },
          annotations: { ...placement.annotations },
        },
        spec: podSpec,
      },
    },
  };
}
