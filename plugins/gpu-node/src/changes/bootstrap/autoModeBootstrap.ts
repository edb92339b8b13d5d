/**
 * What the bootstrap of an EKS Auto Mode cluster says (the bootstrap itself:
 * `providerStackBootstrap.ts`). AWS runs everything on Auto Mode's GPU nodes
 * (gpu-common `cluster/eksAutoMode.ts` has the sources): the NVIDIA driver
 * and device plugin (not visible as a DaemonSet), the NVIDIA DRA driver on
 * Kubernetes 1.36 and later, and Karpenter with its gates, and the NodeClass
 * is AWS's `default` or the platform team's.
 */
import type { ProviderGpuStack } from './providerStackBootstrap';

/** What the pull request says about what AWS runs, once per Auto Mode bootstrap. */
export const AUTO_MODE_BOOTSTRAP_NOTE =
  "EKS Auto Mode runs the NVIDIA driver and device plugin on its GPU nodes (the NVIDIA DRA driver too, on Kubernetes 1.36 and later) and runs Karpenter itself: the bootstrap writes no GPU Operator, device-plugin or MIG config, DRA driver, Karpenter release or NodeClass. Requests get whole GPUs, or GPUs claimed through DRA; time-slicing, MPS and MIG are refused there, since AWS's device plugin reads no config of ours.";

export const AUTO_MODE_GPU_STACK: ProviderGpuStack = {
  release: 'eks-auto-mode',
  note: AUTO_MODE_BOOTSTRAP_NOTE,
  secondPluginNote: setting =>
    `${setting} runs a device plugin beside the one EKS Auto Mode runs on its GPU nodes: both register the GPUs with the kubelet, and which one serves a node changes with restarts; turn it off (the GPU Operator's \`devicePlugin.enabled: false\`) or keep it off Auto Mode nodes (\`eks.amazonaws.com/compute-type: auto\`).`,
};
