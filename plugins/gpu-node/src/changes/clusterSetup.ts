import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';

/**
 * A request for a cluster whose GPU folder does not exist would write an
 * orphan folder nothing deploys, with a NodePool whose node class, device
 * plugin and MIG manager are missing: refused, pointing at the bootstrap.
 *
 * @public
 */
export function clusterNotBootstrapped(
  cluster: string,
  missingKustomization: string,
): GpuInputError {
  return new GpuInputError([
    {
      path: 'spec.cluster',
      rule: 'cluster-not-bootstrapped',
      message: `cluster "${cluster}" has no GPU setup in the repository (${missingKustomization} is missing): run the gpu-cluster-bootstrap template for it first (it adds the GPU Operator values, the device-plugin and MIG configs and the GPU node class), or check the cluster name`,
    },
  ]);
}
