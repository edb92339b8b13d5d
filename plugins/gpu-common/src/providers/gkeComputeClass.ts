import { buildComputeClass, COMPUTE_CLASS } from '../manifests/computeClass';
import type { PoolProvider } from './types';

/**
 * GKE: a pool is a ComputeClass whose node pools GKE creates itself
 * (node-pool auto-creation), on Compute Engine machine types with whole
 * NVIDIA GPUs. GKE installs its own driver and device plugin and shares
 * the GPUs as the ComputeClass says (time-sharing, MPS, MIG partitions),
 * so nothing else is written for a pool: no device-plugin or mig-parted
 * config, no node label of the product's. Pods land on the class by
 * `cloud.google.com/compute-class`, the label GKE puts on its nodes.
 *
 * @public
 */
export const gkeComputeClassProvider: PoolProvider = {
  id: 'gke',
  displayName: 'GKE (ComputeClass)',
  machines: 'gcp',
  poolKind: COMPUTE_CLASS.kind,
  nodePoolLabel: 'cloud.google.com/compute-class',
  poolObjects: (plan, cluster, catalog) => [
    buildComputeClass(plan, cluster, catalog),
  ],
};
