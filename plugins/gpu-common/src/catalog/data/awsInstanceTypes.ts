import type { InstanceType } from '../types';

/**
 * AWS EC2 instance types with NVIDIA GPUs that the planner can target.
 * Copied from Karpenter's generated instance-type reference
 * (https://karpenter.sh/v1.14/reference/instance-types/; p3.* from the v1.0
 * page; sources in aws/karpenter-provider-aws
 * `website/content/en/v1.14/reference/instance-types.md` and
 * `website/content/en/v1.0/reference/instance-types.md`): GPU count, EC2 GPU
 * memory per GPU (MiB), vCPU, memory (GiB) and the
 * `karpenter.k8s.aws/instance-gpu-name` label. Prices: Karpenter's fallback
 * price table (`pkg/providers/pricing/zz_generated.pricing_aws.go` of the same
 * repository), us-east-1 on-demand (generated 2026-07-20) — list prices without
 * discounts, override them per organisation.
 *
 * Left out on purpose: g5g (arm64 T4G, not in the catalog), g6f / gr6f
 * (fractional vGPU L4: EC2 reports 0 GPUs), g7 / g7e (RTX PRO, not yet in the
 * catalog), p6-b300 (B300, not in the catalog).
 */
type Row = [
  name: string,
  gpuModel: string,
  karpenterGpuName: string,
  gpusPerNode: number,
  gpuMemoryMiB: number,
  vcpu: number,
  memoryGiB: number,
  onDemandUsdPerHour: number,
];

/**
 * p5e.48xlarge has no entry in Karpenter's price table (sold as capacity
 * blocks only); 0 means "unknown" (see `InstanceType.onDemandUsdPerHour`).
 */
const PRICE_UNKNOWN = 0;

const ROWS: Row[] = [
  ['g4dn.xlarge', 't4', 't4', 1, 16384, 4, 16, 0.526],
  ['g4dn.2xlarge', 't4', 't4', 1, 16384, 8, 32, 0.752],
  ['g4dn.4xlarge', 't4', 't4', 1, 16384, 16, 64, 1.204],
  ['g4dn.8xlarge', 't4', 't4', 1, 16384, 32, 128, 2.176],
  ['g4dn.12xlarge', 't4', 't4', 4, 16384, 48, 192, 3.912],
  ['g4dn.16xlarge', 't4', 't4', 1, 16384, 64, 256, 4.352],
  ['g4dn.metal', 't4', 't4', 8, 16384, 96, 384, 7.824],
  ['g5.xlarge', 'a10g', 'a10g', 1, 22888, 4, 16, 1.006],
  ['g5.2xlarge', 'a10g', 'a10g', 1, 22888, 8, 32, 1.212],
  ['g5.4xlarge', 'a10g', 'a10g', 1, 22888, 16, 64, 1.624],
  ['g5.8xlarge', 'a10g', 'a10g', 1, 22888, 32, 128, 2.448],
  ['g5.12xlarge', 'a10g', 'a10g', 4, 22888, 48, 192, 5.672],
  ['g5.16xlarge', 'a10g', 'a10g', 1, 22888, 64, 256, 4.096],
  ['g5.24xlarge', 'a10g', 'a10g', 4, 22888, 96, 384, 8.144],
  ['g5.48xlarge', 'a10g', 'a10g', 8, 22888, 192, 768, 16.288],
  ['g6.xlarge', 'l4', 'l4', 1, 22888, 4, 16, 0.8048],
  ['g6.2xlarge', 'l4', 'l4', 1, 22888, 8, 32, 0.9776],
  ['g6.4xlarge', 'l4', 'l4', 1, 22888, 16, 64, 1.3232],
  ['g6.8xlarge', 'l4', 'l4', 1, 22888, 32, 128, 2.0144],
  ['g6.12xlarge', 'l4', 'l4', 4, 22888, 48, 192, 4.6016],
  ['g6.16xlarge', 'l4', 'l4', 1, 22888, 64, 256, 3.3968],
  ['g6.24xlarge', 'l4', 'l4', 4, 22888, 96, 384, 6.6752],
  ['g6.48xlarge', 'l4', 'l4', 8, 22888, 192, 768, 13.3504],
  ['g6e.xlarge', 'l40s', 'l40s', 1, 45776, 4, 32, 1.861],
  ['g6e.2xlarge', 'l40s', 'l40s', 1, 45776, 8, 64, 2.24208],
  ['g6e.4xlarge', 'l40s', 'l40s', 1, 45776, 16, 128, 3.00424],
  ['g6e.8xlarge', 'l40s', 'l40s', 1, 45776, 32, 256, 4.52856],
  ['g6e.12xlarge', 'l40s', 'l40s', 4, 45776, 48, 384, 10.49264],
  ['g6e.16xlarge', 'l40s', 'l40s', 1, 45776, 64, 512, 7.57719],
  ['g6e.24xlarge', 'l40s', 'l40s', 4, 45776, 96, 768, 15.06559],
  ['g6e.48xlarge', 'l40s', 'l40s', 8, 45776, 192, 1536, 30.13118],
  ['gr6.4xlarge', 'l4', 'l4', 1, 22888, 16, 128, 1.5392],
  ['gr6.8xlarge', 'l4', 'l4', 1, 22888, 32, 256, 2.4464],
  ['p3.2xlarge', 'v100', 'v100', 1, 16384, 8, 61, 3.06],
  ['p3.8xlarge', 'v100', 'v100', 4, 16384, 32, 244, 12.24],
  ['p3.16xlarge', 'v100', 'v100', 8, 16384, 64, 488, 24.48],
  ['p3dn.24xlarge', 'v100-32gb', 'v100', 8, 32768, 96, 768, 31.212],
  ['p4d.24xlarge', 'a100-40gb', 'a100', 8, 40960, 96, 1152, 21.957642],
  ['p4de.24xlarge', 'a100-80gb', 'a100', 8, 81920, 96, 1152, 27.44705],
  ['p5.4xlarge', 'h100-80gb', 'h100', 1, 81920, 16, 256, 6.88],
  ['p5.48xlarge', 'h100-80gb', 'h100', 8, 81920, 192, 2048, 55.04],
  ['p5e.48xlarge', 'h200', 'h200', 8, 144384, 192, 2048, PRICE_UNKNOWN],
  ['p5en.48xlarge', 'h200', 'h200', 8, 144384, 192, 2048, 63.296],
  ['p6-b200.48xlarge', 'b200', 'b200', 8, 183359, 192, 2048, 113.9328],
];

export const AWS_INSTANCE_TYPES: InstanceType[] = ROWS.map(
  ([
    name,
    gpuModel,
    karpenterGpuName,
    gpusPerNode,
    gpuMemoryMiB,
    vcpu,
    memoryGiB,
    onDemandUsdPerHour,
  ]) => ({
    name,
    // The EC2 family is everything before the first dot (`p6-b200.48xlarge` -> `p6-b200`).
    family: name.slice(0, name.indexOf('.')),
    provider: 'aws',
    gpuModel,
    gpusPerNode,
    gpuMemoryMiB,
    vcpu,
    memoryMiB: memoryGiB * 1024,
    onDemandUsdPerHour,
    karpenterGpuName,
  }),
);
