/**
 * Labels the GPU Operator's discovery puts on a GPU node once it runs: GPU
 * Feature Discovery's `nvidia.com/gpu.*` (NVIDIA/k8s-device-plugin v0.17
 * `docs/gpu-feature-discovery/README.md`, "Generated Labels") and NFD's PCI
 * vendor label for NVIDIA (`10de`). A node that exists before its pods are
 * scheduled (Cluster API, static) carries them when a pod selects them;
 * Karpenter launches a node only for labels it knows before launch, so on a
 * NodePool they are never there (unless its template sets them).
 *
 * `nvidia.com/gpu.product` is any value here only where the pool's model is
 * not known: a shape that knows it holds its values (`gpuProductLabel.ts`).
 *
 * One list for the scheduling model (`nodeShape.ts`) and the workload patch's
 * reading of an existing workload's own selectors (`plannedPoolShape.ts`).
 */
export const RUNNING_GPU_NODE_LABELS: Readonly<
  Record<string, readonly string[] | 'any'>
> = {
  'nvidia.com/gpu.present': ['true'],
  'nvidia.com/gpu.deploy.device-plugin': ['true'],
  'nvidia.com/gpu.product': 'any',
  'nvidia.com/gpu.count': 'any',
  'nvidia.com/gpu.memory': 'any',
  'nvidia.com/gpu.family': 'any',
  'nvidia.com/gpu.machine': 'any',
  'nvidia.com/mig.capable': 'any',
  'feature.node.kubernetes.io/pci-10de.present': ['true'],
};
