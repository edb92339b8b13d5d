import type { ClusterApiSettings } from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import type { Plan, Taint } from '../../planner/types';
import type { KubernetesObject } from '../types';
import { CLUSTER_API } from './clusterApiGroups';
import { poolTemplate } from './poolTemplate';

/** The taints of the pool's nodes: its GPU taint, then any a reused pool carries. */
export function poolTaints(plan: Plan): Taint[] {
  return [plan.pool.taint, ...(plan.pool.otherTaints ?? [])];
}

/** kubelet's `--node-labels` value: `key=value` pairs, sorted, comma separated. */
export function nodeLabelsArg(labels: Record<string, string>): string {
  return Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/**
 * KubeadmConfigTemplate (`bootstrap.cluster.x-k8s.io/v1beta2`) of a Cluster
 * API pool: its nodes join with the pool's labels and taints. The labels
 * must come from kubelet registration: Cluster API copies a Machine's labels
 * to its Node only for `node-role.kubernetes.io`, `node-restriction.kubernetes.io`
 * and `node.cluster.x-k8s.io` keys (kubernetes-sigs/cluster-api v1.14.0
 * `docs/book/src/reference/api/metadata-propagation.md`), so
 * `nvidia.com/device-plugin.config`, `nvidia.com/mig.config` and the pool
 * label would never reach the nodes from the MachineDeployment. v1beta2
 * `kubeletExtraArgs` is a list of `{name, value}` with unique names.
 * Labels are set at registration only: a changed label is a new template,
 * and Cluster API replaces the pool's nodes to apply it.
 */
export function buildKubeadmConfigTemplate(
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
): KubernetesObject {
  const extraArgs = Object.entries(settings.kubeletExtraArgs ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => ({ name, value }));
  const spec = {
    template: {
      spec: {
        joinConfiguration: {
          nodeRegistration: {
            kubeletExtraArgs: [
              { name: 'node-labels', value: nodeLabelsArg(plan.pool.labels) },
              ...extraArgs,
            ],
            taints: poolTaints(plan).map(t => ({ ...t })),
          },
        },
      },
    },
  };
  return poolTemplate(
    CLUSTER_API.kubeadmConfigTemplate,
    plan,
    cluster,
    settings,
    spec,
  );
}
