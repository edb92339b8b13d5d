import type { InstanceType } from '../types';
import { GPU_MEMORY_MIB } from './gpuMemory';

/**
 * Compute Engine machine types with whole NVIDIA GPUs that GKE node pools
 * (and a ComputeClass's auto-created ones) run: the accelerator-optimized
 * series G2 (L4), A2 High (A100 40GB), A2 Ultra (A100 80GB), A3 High (H100
 * 80GB), and N1 general-purpose machines with T4s attached. GPU count, vCPU
 * and memory (GB) from "GPU machine types"
 * (cloud.google.com/compute/docs/gpus, and
 * cloud.google.com/compute/docs/accelerator-optimized-machines).
 *
 * Prices: on-demand list prices of us-central1 in USD per hour, the machine
 * type's vCPUs and memory plus its GPUs (cloud.google.com/compute/vm-instance-pricing
 * and cloud.google.com/compute/gpus-pricing, N1 with T4 at $0.35 per GPU-hour
 * on top of the N1 machine); read from the pricing pages, not checked against
 * a billing export: organisations override them (`mergeCatalog`).
 *
 * An N1 machine takes 1, 2 or 4 T4s; the catalog names one N1 shape per GPU
 * count (the name is what the ComputeClass's `machineType` says, the count
 * its `gpu.count`). Memory per GPU is the model's (NVML's), as for Azure.
 */
type Row = [
  name: string,
  family: string,
  gpuModel: keyof typeof GPU_MEMORY_MIB,
  gpusPerNode: number,
  vcpu: number,
  memoryGB: number,
  onDemandUsdPerHour: number,
];

const ROWS: Row[] = [
  ['n1-standard-4', 'n1', 't4', 1, 4, 15, 0.54],
  ['n1-standard-8', 'n1', 't4', 1, 8, 30, 0.73],
  ['n1-standard-16', 'n1', 't4', 2, 16, 60, 1.46],
  ['n1-standard-32', 'n1', 't4', 4, 32, 120, 2.92],
  ['g2-standard-4', 'g2', 'l4', 1, 4, 16, 0.70683],
  ['g2-standard-8', 'g2', 'l4', 1, 8, 32, 0.8536],
  ['g2-standard-12', 'g2', 'l4', 1, 12, 48, 1.00037],
  ['g2-standard-16', 'g2', 'l4', 1, 16, 64, 1.14714],
  ['g2-standard-24', 'g2', 'l4', 2, 24, 96, 2.00074],
  ['g2-standard-48', 'g2', 'l4', 4, 48, 192, 4.00148],
  ['g2-standard-96', 'g2', 'l4', 8, 96, 384, 8.00296],
  ['a2-highgpu-1g', 'a2', 'a100-40gb', 1, 12, 85, 3.673385],
  ['a2-highgpu-2g', 'a2', 'a100-40gb', 2, 24, 170, 7.34677],
  ['a2-highgpu-4g', 'a2', 'a100-40gb', 4, 48, 340, 14.69354],
  ['a2-highgpu-8g', 'a2', 'a100-40gb', 8, 96, 680, 29.38708],
  ['a2-ultragpu-1g', 'a2', 'a100-80gb', 1, 12, 170, 5.06879],
  ['a2-ultragpu-2g', 'a2', 'a100-80gb', 2, 24, 340, 10.13758],
  ['a2-ultragpu-4g', 'a2', 'a100-80gb', 4, 48, 680, 20.27516],
  ['a2-ultragpu-8g', 'a2', 'a100-80gb', 8, 96, 1360, 40.55032],
  ['a3-highgpu-8g', 'a3', 'h100-80gb', 8, 208, 1872, 88.2484],
];

export const GCP_MACHINE_TYPES: InstanceType[] = ROWS.map(
  ([name, family, gpuModel, gpusPerNode, vcpu, memoryGB, price]) => ({
    name,
    family,
    provider: 'gcp',
    gpuModel,
    gpusPerNode,
    gpuMemoryMiB: GPU_MEMORY_MIB[gpuModel],
    vcpu,
    memoryMiB: memoryGB * 1024,
    onDemandUsdPerHour: price,
  }),
);
