import type { ClusterProfile } from '../cluster/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import type { KubernetesObject } from './types';

/**
 * OS disk of GPU nodes, in GB: CUDA and inference images are 10-20 GiB each
 * and several versions sit in the image cache; the provider's 128 GB default
 * fills up on the first model rollouts (the EC2NodeClass gets 200Gi for the
 * same reason).
 */
export const AKS_GPU_OS_DISK_GB = 200;

/**
 * The cluster's GPU AKSNodeClass `karpenter.azure.com/v1beta1` (the storage
 * version of Azure/karpenter-provider-azure v1.14.2
 * `pkg/apis/crds/karpenter.azure.com_aksnodeclasses.yaml`). `gpu.mode: Driver`
 * lets AKS install the NVIDIA driver, matching the bootstrap's GPU Operator
 * values (driver and toolkit left to the node image); with `None` the
 * provider would also offer sizes AKS cannot install a driver on. The image
 * family stays the provider's default (`Ubuntu`, the version AKS pairs with
 * the cluster's Kubernetes version).
 *
 * @public
 */
export function buildAksNodeClass(cluster: ClusterProfile): KubernetesObject {
  return {
    apiVersion: 'karpenter.azure.com/v1beta1',
    kind: 'AKSNodeClass',
    metadata: {
      name: cluster.nodeClass.name,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
    },
    spec: {
      imageFamily: 'Ubuntu',
      osDiskSizeGB: AKS_GPU_OS_DISK_GB,
      gpu: { mode: 'Driver' },
    },
  };
}
