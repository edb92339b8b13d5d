import type { ClusterProfile } from '../cluster/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import type { KubernetesObject } from './types';

/**
 * Root volume for GPU nodes. CUDA / inference images are commonly 10-20 GiB
 * each and several versions sit in the image cache; Karpenter's 20Gi default
 * fills up and evicts pods (disk pressure) on the first model rollout.
 */
export const GPU_ROOT_VOLUME_SIZE = '200Gi';

/** IAM role placeholder following the Karpenter getting-started naming. */
/**
 * Karpenter cannot read the NVIDIA DRA driver's configuration: the node
 * class says how the driver shares each GPU (aws/karpenter-provider-aws
 * v1.15 `tasks/dra.md`, "Requesting a timesliced GPU"; read by
 * `nvidiadra.ParseConsumableCapacity` in `pkg/cloudprovider`). Without it
 * Karpenter models a GPU per claim and launches a node per few claims.
 */
export const NVIDIA_CONSUMABLE_CAPACITY_ANNOTATION =
  'karpenter.k8s.aws/nvidia-consumable-capacity';

export function karpenterNodeRoleName(clusterName: string): string {
  return `KarpenterNodeRole-${clusterName}`;
}

/**
 * The cluster's GPU EC2NodeClass `karpenter.k8s.aws/v1`. The `al2023@latest`
 * alias lets Karpenter choose the NVIDIA AMI variant per instance type
 * (aws/karpenter-provider-aws v1.14.1 `pkg/providers/amifamily/types.go`:
 * the `nvidia` variant where `karpenter.k8s.aws/instance-gpu-count` exists);
 * `id`/`name` selection could not. Subnets and
 * security groups are discovered by the `karpenter.sh/discovery` tag.
 *
 * @public
 */
export function buildEc2NodeClass(cluster: ClusterProfile): KubernetesObject {
  const discovery = { 'karpenter.sh/discovery': cluster.name };
  const shares = cluster.dra?.consumableShares;
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: {
      name: cluster.nodeClass.name,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
      ...(shares
        ? {
            annotations: {
              [NVIDIA_CONSUMABLE_CAPACITY_ANNOTATION]: String(shares),
            },
          }
        : {}),
    },
    spec: {
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      role: karpenterNodeRoleName(cluster.name),
      subnetSelectorTerms: [{ tags: { ...discovery } }],
      securityGroupSelectorTerms: [{ tags: { ...discovery } }],
      blockDeviceMappings: [
        {
          deviceName: '/dev/xvda',
          rootVolume: true,
          ebs: {
            volumeSize: GPU_ROOT_VOLUME_SIZE,
            volumeType: 'gp3',
            encrypted: true,
            deleteOnTermination: true,
          },
        },
      ],
      metadataOptions: {
        httpEndpoint: 'enabled',
        httpProtocolIPv6: 'disabled',
        httpPutResponseHopLimit: 1,
        httpTokens: 'required',
      },
    },
  };
}
