/**
 * What the bootstrap of a GKE cluster says (the bootstrap itself:
 * `providerStackBootstrap.ts`). GKE runs the GPU stack of the nodes it
 * creates for a ComputeClass, as Google documents it (2026):
 * - "Run GPUs in GKE Standard node pools" / "About custom compute classes"
 *   (cloud.google.com/kubernetes-engine/docs): a GPU rule's
 *   `gpu.driverVersion` (`default`, as gpu-common `manifests/computeClass.ts`
 *   writes it; the node pool's `gpuDriverInstallationConfig`) makes GKE
 *   install the NVIDIA driver, and GKE runs its NVIDIA device plugin on
 *   every GPU node unless the node pool carries
 *   `gke-no-default-nvidia-gpu-device-plugin=true`.
 * - "Share GPUs with multiple workloads" / "Running multi-instance GPUs":
 *   time-sharing, MPS and MIG partitions come from the ComputeClass's
 *   `gpuSharing` and `gpuPartitionSize`, read by GKE's device plugin, which
 *   reads no ConfigMap; no mig-parted runs.
 * - GKE's cluster autoscaler creates the nodes (node-pool auto-creation):
 *   no Karpenter, no node class, no DRA driver (gpu-common
 *   `cluster/gkeCapability.ts`: DRA refused).
 */
import type { ProviderGpuStack } from './providerStackBootstrap';

/** What the pull request says about what GKE runs, once per GKE bootstrap. */
export const GKE_BOOTSTRAP_NOTE =
  "GKE runs the NVIDIA driver and device plugin on the GPU nodes it creates for each ComputeClass (`gpu.driverVersion: default` in the class's GPU rules), and shares and partitions their GPUs as the class's `gpuSharing` says: the bootstrap writes no GPU Operator, device-plugin or MIG config, DRA driver, Karpenter release or node class. Requests get whole GPUs, time-sharing, MPS or MIG partitions (`gpuPartitionSize`); DRA is refused there, since GKE's autoscaler creates no nodes for DRA claims.";

export const GKE_GPU_STACK: ProviderGpuStack = {
  release: 'gke',
  note: GKE_BOOTSTRAP_NOTE,
  secondPluginNote: setting =>
    `${setting} runs a device plugin beside the one GKE runs on its GPU nodes: both register the GPUs with the kubelet, and the sharing of the ComputeClass (\`gpuSharing\`) no longer holds; turn it off (the GPU Operator's \`devicePlugin.enabled: false\`), or run it only on node pools labelled \`gke-no-default-nvidia-gpu-device-plugin=true\`, which the product's ComputeClasses never create.`,
};
