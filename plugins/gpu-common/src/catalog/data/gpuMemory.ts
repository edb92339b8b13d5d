/**
 * Usable memory per GPU in MiB, as the provider / NVML report it — NOT the
 * marketing size. Where a model is sold on AWS, the figure is EC2's
 * `GpuInfo.MemoryInfo.SizeInMiB` as Karpenter exposes it in
 * `karpenter.k8s.aws/instance-gpu-memory` (Karpenter's v1.14 instance-type
 * reference, https://karpenter.sh/v1.14/reference/instance-types/, source in
 * aws/karpenter-provider-aws
 * `website/content/en/v1.14/reference/instance-types.md`). Using EC2's figure
 * keeps `InstanceType.gpuMemoryMiB === GpuModel.memoryMiB` for every
 * built-in instance type, except where NVML is known to report LESS than EC2:
 * the planner divides this figure among replicas, so it must be what a
 * process can really allocate. A T4 shows 15360 MiB in `nvidia-smi` and GFD
 * labels it `nvidia.com/gpu.memory=15360` (the T4 example of GFD's label table,
 * k8s-device-plugin v0.20.0 `docs/gpu-feature-discovery/README.md`), while EC2
 * says 16384: we keep 15360. Organisations can override any model (see
 * `mergeCatalog`).
 */
export const GPU_MEMORY_MIB = {
  /** g4dn: NVML / GFD 15360 MiB (EC2 reports 16384 for the 16 GB card). */
  t4: 15360,
  /** g5: EC2 22888 MiB (24 GB card, 22.35 GiB usable). */
  a10g: 22888,
  /** g6 / gr6: EC2 22888 MiB (24 GB card). */
  l4: 22888,
  /** g6e: EC2 45776 MiB (48 GB card). */
  l40s: 45776,
  /** p3: EC2 16384 MiB (V100 16 GB). */
  v100: 16384,
  /** p3dn: EC2 32768 MiB (V100 32 GB). */
  'v100-32gb': 32768,
  /**
   * A30 24 GB is not sold on EC2. 24576 MiB = 24 GiB is an APPROXIMATION from
   * the marketing size (no NVML figure in our references).
   */
  a30: 24576,
  /** p4d: EC2 40960 MiB. */
  'a100-40gb': 40960,
  /** p4de: EC2 81920 MiB. */
  'a100-80gb': 81920,
  /** p5: EC2 81920 MiB. */
  'h100-80gb': 81920,
  /**
   * H100 NVL (94 GB) is not sold on EC2. 95830 MiB is the total `nvidia-smi`
   * commonly shows for it; UNVERIFIED in our references (which only give its
   * MIG profile sizes, e.g. 1g.12gb = 11008 MiB).
   */
  'h100-nvl': 95830,
  /** p5e / p5en: EC2 144384 MiB (141 GiB). */
  h200: 144384,
  /** p6-b200: EC2 183359 MiB (179.06 GiB, marketed as 180 GB). */
  b200: 183359,
} as const;
