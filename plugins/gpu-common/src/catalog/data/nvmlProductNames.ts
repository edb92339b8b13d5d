/**
 * The product names NVML reports for the GPUs of each built-in model
 * (`nvidia-smi --query-gpu=name`), one per board variant the model's machines
 * carry. Two consumers read them:
 * - GPU Feature Discovery turns the name into the node label
 *   `nvidia.com/gpu.product` (`scheduling/gpuProductLabel.ts`);
 * - the NVIDIA DRA driver publishes it as the device attribute `productName`
 *   (kubernetes-sigs/dra-driver-nvidia-gpu@95932046
 *   `site/content/docs/reference/resourceslice-attributes.md`: "product name
 *   reported by NVML"), and Karpenter's DRA metadata lists it per AWS instance
 *   type (aws/karpenter-provider-aws v1.15 `tasks/dra.md`, "Supported Instance
 *   Types"), so a claim that selects its model by these makes Karpenter launch
 *   only instance types of that model.
 * From the board names of NVIDIA's PCI ID list for the model's device ids
 * (`pciDeviceIds.ts`, `migGeometry.ts`) as NVML spells them, checked against
 * the labels clusters select (e.g. `Tesla-T4`, `NVIDIA-A100-SXM4-40GB`,
 * `NVIDIA-A100-80GB-PCIe`, `NVIDIA-H100-80GB-HBM3`, `Tesla-V100-SXM2-16GB`).
 * A model of an organisation's own catalog has none: its label is not known,
 * and its DRA claims select by memory.
 */
export const NVML_PRODUCT_NAMES: Readonly<Record<string, readonly string[]>> = {
  t4: ['Tesla T4'],
  a10g: ['NVIDIA A10G'],
  l4: ['NVIDIA L4'],
  l40s: ['NVIDIA L40S'],
  v100: ['Tesla V100-SXM2-16GB', 'Tesla V100-PCIE-16GB'],
  'v100-32gb': [
    'Tesla V100-SXM2-32GB',
    'Tesla V100-PCIE-32GB',
    'Tesla V100S-PCIE-32GB',
  ],
  a30: ['NVIDIA A30'],
  'a100-40gb': ['NVIDIA A100-SXM4-40GB', 'NVIDIA A100-PCIE-40GB'],
  'a100-80gb': ['NVIDIA A100-SXM4-80GB', 'NVIDIA A100 80GB PCIe'],
  'h100-80gb': ['NVIDIA H100 80GB HBM3', 'NVIDIA H100 PCIe'],
  'h100-nvl': ['NVIDIA H100 NVL'],
  h200: ['NVIDIA H200', 'NVIDIA H200 NVL'],
  b200: ['NVIDIA B200'],
};
