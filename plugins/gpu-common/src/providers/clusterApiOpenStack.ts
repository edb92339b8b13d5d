import { buildOpenStackMachineTemplate } from '../manifests/clusterApi/openStackMachineTemplate';
import type { ClusterApiInfrastructureProvider } from './clusterApiInfrastructure';

/**
 * Cluster API on OpenStack (CAPO): a pool's machine is an
 * OpenStackMachineTemplate with the Nova flavor the plan picked among the
 * catalog's `openstack` flavors.
 */
export const clusterApiOpenStack: ClusterApiInfrastructureProvider = {
  infrastructure: 'openstack',
  displayName: 'Cluster API (OpenStack)',
  machines: 'openstack',
  machineTemplate: (plan, cluster, settings) =>
    buildOpenStackMachineTemplate(plan, cluster, settings),
};
