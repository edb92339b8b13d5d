import { buildMetal3MachineTemplate } from '../manifests/clusterApi/metal3MachineTemplate';
import type { ClusterApiInfrastructureProvider } from './clusterApiInfrastructure';

/**
 * Cluster API on bare metal with Metal3 (CAPM3): a pool's machine is a
 * Metal3MachineTemplate that claims hosts of the class the plan picked
 * among the catalog's `metal3` machines.
 */
export const clusterApiMetal3: ClusterApiInfrastructureProvider = {
  infrastructure: 'metal3',
  displayName: 'Cluster API (Metal3)',
  machines: 'metal3',
  machineTemplate: (plan, cluster, settings) =>
    buildMetal3MachineTemplate(plan, cluster, settings),
};
