import type { InstanceType } from '../types';
import { GPU_MEMORY_MIB } from './gpuMemory';

/**
 * Azure VM sizes with whole NVIDIA GPUs that Karpenter's Azure provider
 * launches with the AKS-managed driver: every size here is listed in
 * Azure/karpenter-provider-azure v1.14.2 `pkg/utils/supported-gpus.yaml`.
 * GPU count, vCPU and memory (GiB) from Microsoft's VM size pages
 * (learn.microsoft.com/azure/virtual-machines/sizes: NCasT4_v3, NCv3, NDv2,
 * NC A100 v4, ND A100 v4, NDm A100 v4, NC H100 v5, ND H100 v5). Prices: the
 * provider's fallback price table (`pkg/providers/pricing/zz_generated.pricing.go`
 * of the same tag, generated 2026-06-18), eastus on-demand — list prices
 * without discounts, override them per organisation.
 *
 * Azure reports no memory per GPU for a size, so it is the model's (NVML's).
 *
 * Left out on purpose: the fractional A10 sizes (NVadsA10_v5 below 36 vCPU,
 * NCads_A10_v4 below 32: a share of one GPU, not whole GPUs), the full A10
 * sizes (the A10 is not the catalog's AWS A10G), AMD sizes (NVv4, ND MI300X).
 */
type Row = [
  name: string,
  family: string,
  gpuModel: keyof typeof GPU_MEMORY_MIB,
  gpusPerNode: number,
  vcpu: number,
  memoryGiB: number,
  onDemandUsdPerHour: number,
];

const ROWS: Row[] = [
  ['Standard_NC4as_T4_v3', 'NCasT4_v3', 't4', 1, 4, 28, 0.526],
  ['Standard_NC8as_T4_v3', 'NCasT4_v3', 't4', 1, 8, 56, 0.752],
  ['Standard_NC16as_T4_v3', 'NCasT4_v3', 't4', 1, 16, 110, 1.204],
  ['Standard_NC64as_T4_v3', 'NCasT4_v3', 't4', 4, 64, 440, 4.352],
  ['Standard_NC6s_v3', 'NCv3', 'v100', 1, 6, 112, 3.06],
  ['Standard_NC12s_v3', 'NCv3', 'v100', 2, 12, 224, 6.12],
  ['Standard_NC24s_v3', 'NCv3', 'v100', 4, 24, 448, 12.24],
  ['Standard_ND40rs_v2', 'NDv2', 'v100-32gb', 8, 40, 672, 22.032],
  ['Standard_NC24ads_A100_v4', 'NCadsA100_v4', 'a100-80gb', 1, 24, 220, 3.673],
  ['Standard_NC48ads_A100_v4', 'NCadsA100_v4', 'a100-80gb', 2, 48, 440, 7.346],
  ['Standard_NC96ads_A100_v4', 'NCadsA100_v4', 'a100-80gb', 4, 96, 880, 14.692],
  ['Standard_ND96asr_v4', 'NDasrA100_v4', 'a100-40gb', 8, 96, 900, 27.197],
  [
    'Standard_ND96amsr_A100_v4',
    'NDamsrA100_v4',
    'a100-80gb',
    8,
    96,
    1900,
    32.77,
  ],
  ['Standard_NC40ads_H100_v5', 'NCadsH100_v5', 'h100-nvl', 1, 40, 320, 6.98],
  ['Standard_NC80adis_H100_v5', 'NCadsH100_v5', 'h100-nvl', 2, 80, 640, 13.96],
  ['Standard_ND96isr_H100_v5', 'NDisrH100_v5', 'h100-80gb', 8, 96, 1900, 98.32],
];

export const AZURE_VM_SIZES: InstanceType[] = ROWS.map(
  ([name, family, gpuModel, gpusPerNode, vcpu, memoryGiB, price]) => ({
    name,
    family,
    provider: 'azure',
    gpuModel,
    gpusPerNode,
    gpuMemoryMiB: GPU_MEMORY_MIB[gpuModel],
    vcpu,
    memoryMiB: memoryGiB * 1024,
    onDemandUsdPerHour: price,
  }),
);
