import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import {
  MIB_PER_GIB,
  ModeDecision,
  WHOLE_GPU_RESOURCE,
  gib,
} from './mode-decision';

/**
 * Whole GPUs: each replica gets `gpusPerReplica` GPUs of its own, so memory is
 * isolated and the request fits iff its VRAM fits those GPUs together.
 */
export function decideExclusive(
  request: GpuRequest,
  model: GpuModel,
): ModeDecision {
  const { vramGiB, gpusPerReplica } = request.spec.gpu;
  const memoryMiB = model.memoryMiB * gpusPerReplica;
  if (vramGiB * MIB_PER_GIB > memoryMiB) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: 'vram-exceeds-gpu',
        message: `${vramGiB} GiB does not fit ${gpusPerReplica} x ${model.id} (${gib(memoryMiB)}); raise gpusPerReplica or pick a larger GPU`,
      },
    ]);
  }
  return {
    sharing: { mode: 'exclusive' },
    resourceName: WHOLE_GPU_RESOURCE,
    resourcePerReplica: gpusPerReplica,
    unitsPerGpu: 1,
    minGpusPerNode: gpusPerReplica,
    vramGuaranteed: true,
    memoryMiB,
    gpuShare: gpusPerReplica,
    physicalGpusPerReplica: gpusPerReplica,
    poolSuffix: '',
    modeLabels: {},
    warnings: [],
    explanation: [
      `exclusive: each replica gets ${gpusPerReplica} whole ${model.id} GPU(s) (${gib(memoryMiB)} >= ${vramGiB} GiB requested), memory isolated.`,
    ],
  };
}
