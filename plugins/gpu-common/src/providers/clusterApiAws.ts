import { buildAwsMachineTemplate } from '../manifests/clusterApi/awsMachineTemplate';
import type { ClusterApiInfrastructureProvider } from './clusterApiInfrastructure';

/**
 * Cluster API on AWS (CAPA): a pool's machine is an AWSMachineTemplate with
 * the instance type the plan picked among the catalog's `aws` types.
 */
export const clusterApiAws: ClusterApiInfrastructureProvider = {
  infrastructure: 'aws',
  displayName: 'Cluster API (AWS)',
  machines: 'aws',
  machineTemplate: (plan, cluster, settings) =>
    buildAwsMachineTemplate(plan, cluster, settings),
};
