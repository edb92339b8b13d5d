import type { ClusterApiSettings } from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import type { Plan } from '../../planner/types';
import {
  gpuAnnotationKeys,
  MANAGED_BY,
  WELL_KNOWN_KEYS,
} from '../metadataKeys';
import type { KubernetesObject } from '../types';
import { templateName } from './templateName';

/**
 * A template of a pool (its bootstrap config or its machine): named by its
 * content, in the Cluster's namespace, labelled as ours and as the pool's,
 * so a release finds and removes it with the pool.
 */
export function poolTemplate(
  type: { apiVersion: string; kind: string },
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
  spec: { template: Record<string, unknown> },
): KubernetesObject {
  return {
    apiVersion: type.apiVersion,
    kind: type.kind,
    metadata: {
      name: templateName(plan.pool.name, spec),
      namespace: settings.namespace,
      labels: {
        [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY,
        [`${cluster.labelDomain}/pool`]: plan.pool.name,
      },
    },
    spec,
  };
}

/**
 * Labels of a machine template's `spec.template.metadata` naming the
 * catalog machine its nodes are, where the machine's spec does not (a vSphere
 * VM shape, a bare-metal host class). Cluster API copies `spec.template` to
 * every machine it creates (kubernetes-sigs/cluster-api v1.14.0
 * `controllers/external/util.go` `GenerateTemplate`), so each VSphereMachine
 * or Metal3Machine carries it too; the repository reader reads the pool's
 * machine type from it (gpu-node `repo/machineDeploymentPools.ts`). Being
 * in the spec, it is part of the template's content name.
 */
export function catalogMachineLabels(
  plan: Plan,
  cluster: Pick<ClusterProfile, 'labelDomain'>,
): Record<string, string> {
  return {
    [gpuAnnotationKeys(cluster.labelDomain).machine]: plan.nodes.instanceType,
  };
}
