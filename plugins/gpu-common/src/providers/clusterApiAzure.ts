import { buildAzureMachineTemplate } from '../manifests/clusterApi/azureMachineTemplate';
import type { ClusterApiInfrastructureProvider } from './clusterApiInfrastructure';

/**
 * Cluster API on Azure (CAPZ): a pool's machine is an AzureMachineTemplate
 * with the VM size the plan picked among the catalog's `azure` sizes.
 */
export const clusterApiAzure: ClusterApiInfrastructureProvider = {
  infrastructure: 'azure',
  displayName: 'Cluster API (Azure)',
  machines: 'azure',
  machineTemplate: (plan, cluster, settings) =>
    buildAzureMachineTemplate(plan, cluster, settings),
};
