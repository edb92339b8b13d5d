import type { ClusterProfile } from './types';

/**
 * The profile used when nothing is configured: an EKS cluster with Karpenter
 * v1.14.1 and the NVIDIA GPU Operator. Values follow the upstream defaults:
 * - `nodeClass` points at an existing EC2NodeClass `gpu` (alias-based AMI
 *   selection picks the NVIDIA variant, aws/karpenter-provider-aws v1.14.1
 *   `pkg/providers/amifamily/types.go`; we do not generate it by default);
 * - the ConfigMap names match the GPU Operator's `devicePlugin.config.name`
 *   and `migManager.config.name` (gpu-operator v26.7.0
 *   `deployments/gpu-operator/values.yaml`) that the bootstrap template sets;
 * - `mixed` MIG strategy: one node can expose several MIG profiles, each as
 *   its own resource (`nvidia.com/mig-<profile>`) that NodeOverlays add;
 * - NodeOverlay on: without it Karpenter never provisions renamed resources
 *   (https://karpenter.sh/v1.14/concepts/nodeoverlays/).
 *
 * @public
 */
export const defaultClusterProfile: Readonly<ClusterProfile> = Object.freeze({
  name: 'default',
  provider: 'aws-karpenter',
  karpenterVersion: '1.14.1',
  nodeClass: Object.freeze({
    group: 'karpenter.k8s.aws',
    kind: 'EC2NodeClass',
    name: 'gpu',
  }),
  generateNodeClass: false,
  devicePluginConfigMap: Object.freeze({
    name: 'nvidia-device-plugin-configs',
    namespace: 'gpu-operator',
  }),
  migPartedConfigMap: Object.freeze({
    name: 'custom-mig-parted-config',
    namespace: 'gpu-operator',
  }),
  migStrategy: 'mixed',
  nodeOverlay: true,
  gpuTaintKey: 'nvidia.com/gpu',
  labelDomain: 'gpu.backstage.io',
  consolidateAfter: '5m',
  // Kubernetes' own namespaces, and where Karpenter and the GPU Operator run
  // by default (their Helm charts' install namespaces).
  systemNamespaces: Object.freeze([
    'kube-system',
    'kube-public',
    'kube-node-lease',
    'karpenter',
    'gpu-operator',
  ]) as unknown as string[],
}) as Readonly<ClusterProfile>;
