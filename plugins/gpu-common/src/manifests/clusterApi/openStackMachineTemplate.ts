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
 * The OpenStack machine of a pool's nodes (CAPO v0.14.7
 * `OpenStackMachineTemplate` v1beta1): the flavor the plan priced its nodes
 * on (`plan.nodes.instanceType`; one flavor per MachineDeployment), and the
 * profile's image, key, network and security groups. `image` is the one
 * field CAPO requires besides a flavor; what is left out (identity, root
 * volume, ports) comes from the OpenStackCluster's defaults.
 */
export function buildOpenStackMachineTemplate(
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
): KubernetesObject {
  const openStack = infrastructureSettingsOf(settings, 'openstack');
  const machine: Record<string, unknown> = {
    flavor: plan.nodes.instanceType,
    image: {
      filter: {
        name: openStack.imageName,
        ...(openStack.imageTags ? { tags: [...openStack.imageTags] } : {}),
      },
    },
  };
  if (openStack.sshKeyName) machine.sshKeyName = openStack.sshKeyName;
  if (openStack.networkName) {
    machine.ports = [
      {
        network: { filter: { name: openStack.networkName } },
        ...(openStack.subnetName
          ? {
              fixedIPs: [
                { subnet: { filter: { name: openStack.subnetName } } },
              ],
            }
          : {}),
      },
    ];
  }
  if (openStack.securityGroupNames) {
    machine.securityGroups = openStack.securityGroupNames.map(name => ({
      filter: { name },
    }));
  }
  return poolTemplate(
    CLUSTER_API.openStackMachineTemplate,
    plan,
    cluster,
    settings,
    { template: { spec: machine } },
  );
}
