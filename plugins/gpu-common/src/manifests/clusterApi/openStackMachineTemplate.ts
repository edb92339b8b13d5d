import type { ClusterApiSettings } from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import type { Plan } from '../../planner/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from '../metadataKeys';
import type { KubernetesObject } from '../types';
import { CLUSTER_API } from './clusterApiGroups';
import { templateName } from './templateName';

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
  const openStack = settings.openStack;
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
  const spec = { template: { spec: machine } };
  return {
    apiVersion: CLUSTER_API.openStackMachineTemplate.apiVersion,
    kind: CLUSTER_API.openStackMachineTemplate.kind,
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
