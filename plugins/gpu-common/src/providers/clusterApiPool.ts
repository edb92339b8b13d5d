import type { ClusterApiSettings } from '../cluster/clusterApi';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import { catalogMachineOf } from '../manifests/clusterApi/catalogMachine';
import { clusterAutoscalerAnnotations } from '../manifests/clusterApi/clusterAutoscaler';
import { CLUSTER_API } from '../manifests/clusterApi/clusterApiGroups';
import { buildKubeadmConfigTemplate } from '../manifests/clusterApi/kubeadmConfigTemplate';
import { buildMachineDeployment } from '../manifests/clusterApi/machineDeployment';
import type { ClusterApiInfrastructureProvider } from './clusterApiInfrastructure';
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
 * Cluster API on one infrastructure: a pool is a MachineDeployment, the
 * infrastructure's machine template (the machine) and its
 * KubeadmConfigTemplate (the pool's labels and taint at kubelet
 * registration), in that order. Nothing Karpenter: no NodeOverlays, no node
 * class. Without the Cluster API autoscaler the pool runs exactly the nodes
 * its ledger needs.
 */
export function clusterApiPoolProvider(
  infrastructure: ClusterApiInfrastructureProvider,
): PoolProvider {
  return {
    id: 'cluster-api',
    displayName: infrastructure.displayName,
    machines: infrastructure.machines,
    poolKind: CLUSTER_API.machineDeployment.kind,
    poolObjects: (plan, cluster, catalog) => {
      const settings = clusterApiSettingsOf(cluster);
      const machineTemplate = infrastructure.machineTemplate(
        plan,
        cluster,
        settings,
        catalog,
      );
      const bootstrap = buildKubeadmConfigTemplate(plan, cluster, settings);
      const autoscaler = settings.autoscaler
        ? clusterAutoscalerAnnotations(
            plan,
            catalogMachineOf(
              plan,
              catalog,
              infrastructure.machines,
              'the cluster autoscaler needs its vCPUs and memory to scale the pool from zero',
            ),
          )
        : undefined;
      return [
        buildMachineDeployment(
          plan,
          cluster,
          settings,
          { bootstrap, infrastructure: machineTemplate },
          autoscaler,
        ),
        machineTemplate,
        bootstrap,
      ];
    },
  };
}
