import {
  infrastructureSettingsOf,
  type ClusterApiSettings,
} from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import type { Plan } from '../../planner/types';
import type { KubernetesObject } from '../types';
import { CLUSTER_API } from './clusterApiGroups';
import { poolTemplate } from './poolTemplate';

/**
 * The Azure VM of a pool's nodes (CAPZ v1.26.0 `AzureMachineTemplate`
 * v1beta1): the VM size the plan priced its nodes on
 * (`plan.nodes.instanceType`, a catalog `azure` size; one size per
 * MachineDeployment) and a Linux OS disk, the two fields CAPZ requires,
 * with the GPU flavor's defaults (kubernetes-sigs/cluster-api-provider-azure
 * v1.26.0 `templates/flavors/nvidia-gpu/machine-deployment.yaml`: 128 GB,
 * Premium_LRS). The image, identity and network come from the AzureCluster.
 */
export function buildAzureMachineTemplate(
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
): KubernetesObject {
  const azure = infrastructureSettingsOf(settings, 'azure');
  const machine: Record<string, unknown> = {
    vmSize: plan.nodes.instanceType,
    osDisk: {
      osType: 'Linux',
      diskSizeGB: azure.osDiskSizeGB ?? 128,
      managedDisk: {
        storageAccountType: azure.osDiskStorageAccountType ?? 'Premium_LRS',
      },
    },
  };
  if (azure.sshPublicKey) machine.sshPublicKey = azure.sshPublicKey;
  return poolTemplate(
    CLUSTER_API.azureMachineTemplate,
    plan,
    cluster,
    settings,
    { template: { spec: machine } },
  );
}
