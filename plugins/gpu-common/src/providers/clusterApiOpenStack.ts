import type { ClusterApiSettings } from '../cluster/clusterApi';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import { clusterAutoscalerAnnotations } from '../manifests/clusterApi/clusterAutoscaler';
import { CLUSTER_API } from '../manifests/clusterApi/clusterApiGroups';
import { buildKubeadmConfigTemplate } from '../manifests/clusterApi/kubeadmConfigTemplate';
import { buildMachineDeployment } from '../manifests/clusterApi/machineDeployment';
import { buildOpenStackMachineTemplate } from '../manifests/clusterApi/openStackMachineTemplate';
import type { PoolProvider } from './types';

/**
 * The profile's Cluster API settings (the profile schema requires them for
 * this provider); a GpuInputError naming `clusterApi` when absent.
 *
 * @public
 */
export function clusterApiSettingsOf(
  cluster: ClusterProfile,
): ClusterApiSettings {
  if (!cluster.clusterApi) {
    throw new GpuInputError([
      {
        path: 'clusterApi',
        rule: 'cluster-api-settings',
        message: `cluster ${cluster.name} has provider "cluster-api" but no clusterApi settings`,
      },
    ]);
  }
  return cluster.clusterApi;
}

/**
 * Cluster API on OpenStack (CAPO): a pool is a MachineDeployment, its
 * OpenStackMachineTemplate (the flavor) and its KubeadmConfigTemplate (the
 * pool's labels and taint at kubelet registration), in that order. Nothing
 * Karpenter: no NodeOverlays, no node class. Without the Cluster API
 * autoscaler the pool runs exactly the nodes its ledger needs.
 *
 * @public
 */
export const clusterApiProvider: PoolProvider = {
  id: 'cluster-api',
  displayName: 'Cluster API (OpenStack)',
  machines: 'openstack',
  poolKind: CLUSTER_API.machineDeployment.kind,
  poolObjects: (plan, cluster, catalog) => {
    const settings = clusterApiSettingsOf(cluster);
    const infrastructure = buildOpenStackMachineTemplate(
      plan,
      cluster,
      settings,
    );
    const bootstrap = buildKubeadmConfigTemplate(plan, cluster, settings);
    const autoscaler = settings.autoscaler
      ? clusterAutoscalerAnnotations(
          plan,
          catalog?.instanceTypes.find(
            t =>
              t.provider === 'openstack' && t.name === plan.nodes.instanceType,
          ),
        )
      : undefined;
    return [
      buildMachineDeployment(
        plan,
        cluster,
        settings,
        { bootstrap, infrastructure },
        autoscaler,
      ),
      infrastructure,
      bootstrap,
    ];
  },
};
