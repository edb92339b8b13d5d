import type { GpuArchitecture, GpuModel, MigGeometry } from '../types';
import { mpsMaxReplicasFor } from '../mps';
import { GPU_MEMORY_MIB } from './gpuMemory';
import {
  A100_40GB_MIG,
  A100_80GB_MIG,
  A30_MIG,
  B200_MIG,
  H100_80GB_MIG,
  H100_NVL_MIG,
  H200_MIG,
} from './migGeometry';

/**
 * Built-in GPU models. Compute capability from NVIDIA's CUDA GPU list;
 * architecture names are GFD's `nvidia.com/gpu.family` values (volta 7.0,
 * turing 7.5, ampere 8.0-8.7, ada-lovelace 8.9, hopper 9.0, blackwell 10.x).
 * Memory: see gpuMemory.ts. `mpsMaxReplicas` is derived, never typed.
 */
function model(
  id: keyof typeof GPU_MEMORY_MIB,
  displayName: string,
  architecture: GpuArchitecture,
  computeCapability: string,
  mig?: MigGeometry,
): GpuModel {
  return {
    id,
    displayName,
    memoryMiB: GPU_MEMORY_MIB[id],
    architecture,
    computeCapability,
    mpsMaxReplicas: mpsMaxReplicasFor(computeCapability),
    ...(mig ? { mig } : {}),
  };
}

export const GPU_MODELS: GpuModel[] = [
  model('t4', 'NVIDIA Tesla T4', 'turing', '7.5'),
  model('a10g', 'NVIDIA A10G', 'ampere', '8.6'),
  model('l4', 'NVIDIA L4', 'ada-lovelace', '8.9'),
  model('l40s', 'NVIDIA L40S', 'ada-lovelace', '8.9'),
  model('v100', 'NVIDIA Tesla V100 16GB', 'volta', '7.0'),
  model('v100-32gb', 'NVIDIA Tesla V100 32GB', 'volta', '7.0'),
  model('a30', 'NVIDIA A30', 'ampere', '8.0', A30_MIG),
  model('a100-40gb', 'NVIDIA A100 40GB', 'ampere', '8.0', A100_40GB_MIG),
  model('a100-80gb', 'NVIDIA A100 80GB', 'ampere', '8.0', A100_80GB_MIG),
  model('h100-80gb', 'NVIDIA H100 80GB', 'hopper', '9.0', H100_80GB_MIG),
  model('h100-nvl', 'NVIDIA H100 NVL 94GB', 'hopper', '9.0', H100_NVL_MIG),
  model('h200', 'NVIDIA H200 141GB', 'hopper', '9.0', H200_MIG),
  model('b200', 'NVIDIA B200 180GB', 'blackwell', '10.0', B200_MIG),
];
