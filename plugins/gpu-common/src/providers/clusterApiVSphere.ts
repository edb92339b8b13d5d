import { catalogMachineOf } from '../manifests/clusterApi/catalogMachine';
import { buildVSphereMachineTemplate } from '../manifests/clusterApi/vSphereMachineTemplate';
import type { ClusterApiInfrastructureProvider } from './clusterApiInfrastructure';

/**
 * Cluster API on vSphere (CAPV): a pool's machine is a
 * VSphereMachineTemplate sized as the catalog's `vsphere` machine the plan
 * picked (CPUs, memory, disk), with its GPUs passed through or as vGPUs.
 */
export const clusterApiVSphere: ClusterApiInfrastructureProvider = {
  infrastructure: 'vsphere',
  displayName: 'Cluster API (vSphere)',
  machines: 'vsphere',
  machineTemplate: (plan, cluster, settings, catalog) =>
    buildVSphereMachineTemplate(
      plan,
      cluster,
      settings,
      catalogMachineOf(
        plan,
        catalog,
        'vsphere',
        'the VM template needs its CPUs, memory, disk and GPUs',
      ),
    ),
};
