import type { ClusterApiSettings } from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import type { Plan } from '../../planner/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from '../metadataKeys';
import { poolAnnotations } from '../poolAnnotations';
import type { KubernetesObject } from '../types';
import { CLUSTER_API } from './clusterApiGroups';

/** The nodes a Cluster API pool runs: its node limit where it has one (DRA), else the planned node count. */
export function poolReplicas(plan: Plan): number {
  return plan.pool.limits.nodes ?? plan.nodes.expected;
}

/**
 * MachineDeployment (`cluster.x-k8s.io/v1beta2`) of a Cluster API pool. It
 * carries the pool's annotations as a NodePool does (the repository reader
 * finds the pool and its ledger there) and references its two templates by
 * name (v1beta2 refs: `apiGroup`, `kind`, `name`): the KubeadmConfigTemplate
 * and the infrastructure's machine template, whatever its kind. Without the autoscaler
 * `spec.replicas` is the node count the ledger needs (every request on the
 * pool); with it, `extraAnnotations` carry the autoscaler's bounds and
 * replicas are left to it (a written value would fight the autoscaler on
 * every sync).
 */
export function buildMachineDeployment(
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
  templates: { bootstrap: KubernetesObject; infrastructure: KubernetesObject },
  extraAnnotations: Record<string, string> | undefined,
): KubernetesObject {
  const machineLabels = {
    [CLUSTER_API.clusterNameLabel]: settings.clusterName,
    [CLUSTER_API.deploymentNameLabel]: plan.pool.name,
  };
  const spec: Record<string, unknown> = {
    clusterName: settings.clusterName,
  };
  if (!extraAnnotations) spec.replicas = poolReplicas(plan);
  spec.selector = { matchLabels: { ...machineLabels } };
  spec.template = {
    metadata: { labels: { ...machineLabels } },
    spec: {
      clusterName: settings.clusterName,
      version: settings.kubernetesVersion,
      bootstrap: {
        configRef: {
          apiGroup: CLUSTER_API.kubeadmConfigTemplate.apiGroup,
          kind: templates.bootstrap.kind,
          name: templates.bootstrap.metadata.name,
        },
      },
      infrastructureRef: {
        apiGroup: CLUSTER_API.infrastructureApiGroup,
        kind: templates.infrastructure.kind,
        name: templates.infrastructure.metadata.name,
      },
    },
  };
  return {
    apiVersion: CLUSTER_API.machineDeployment.apiVersion,
    kind: CLUSTER_API.machineDeployment.kind,
    metadata: {
      name: plan.pool.name,
      namespace: settings.namespace,
      labels: {
        [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY,
        [CLUSTER_API.clusterNameLabel]: settings.clusterName,
      },
      annotations: { ...poolAnnotations(plan, cluster), ...extraAnnotations },
    },
    spec,
  };
}
