/**
 * The product names NVML reports for each built-in GPU model, per form
 * factor: what the NVIDIA DRA driver publishes as the `productName`
 * attribute (kubernetes-sigs/dra-driver-nvidia-gpu@95932046
 * `site/content/docs/reference/resourceslice-attributes.md`: "product name
 * reported by NVML") and what Karpenter's DRA metadata lists per AWS
 * instance type (aws/karpenter-provider-aws v1.15 `tasks/dra.md`,
 * "Supported Instance Types": Tesla T4, NVIDIA A10G, NVIDIA L4, NVIDIA L40S,
 * Tesla V100-SXM2-32GB, NVIDIA A100-SXM4-40GB, NVIDIA A100-SXM4-80GB,
 * NVIDIA H100 80GB HBM3, NVIDIA H200, NVIDIA B200). A claim selects its model
 * with these, so Karpenter launches only instance types of that model.
 * Models a catalog override adds have none: their claims select by memory.
 */
export const NVML_PRODUCT_NAMES: Readonly<Record<string, readonly string[]>> = {
  t4: ['Tesla T4'],
  a10g: ['NVIDIA A10G'],
  l4: ['NVIDIA L4'],
  l40s: ['NVIDIA L40S'],
  v100: ['Tesla V100-SXM2-16GB', 'Tesla V100-PCIE-16GB'],
  'v100-32gb': ['Tesla V100-SXM2-32GB', 'Tesla V100-PCIE-32GB'],
  a30: ['NVIDIA A30'],
  'a100-40gb': ['NVIDIA A100-SXM4-40GB', 'NVIDIA A100-PCIE-40GB'],
  'a100-80gb': ['NVIDIA A100-SXM4-80GB', 'NVIDIA A100 80GB PCIe'],
  'h100-80gb': ['NVIDIA H100 80GB HBM3', 'NVIDIA H100 PCIe'],
  'h100-nvl': ['NVIDIA H100 NVL'],
  h200: ['NVIDIA H200', 'NVIDIA H200 NVL'],
  b200: ['NVIDIA B200'],
};
