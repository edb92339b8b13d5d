import type { GpuModel } from '../catalog/types';
import type { GpuRequest } from '../request/types';
import { formatRequestedGiB } from '../format/units';
import { ModeDecision, WHOLE_GPU_RESOURCE, gib } from './modeDecision';
import { refuseVramAboveGpus } from './vramAboveGpus';

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
  const asked = formatRequestedGiB(vramGiB);
  const reason = `each replica owns ${gpusPerReplica} whole ${model.id} GPU(s): ${gib(memoryMiB)}, at least the ${asked} asked, memory isolated`;
  refuseVramAboveGpus(
    vramGiB,
    `${gpusPerReplica} x ${model.id}`,
    memoryMiB,
    'ask for more GPUs per replica or pick a larger GPU',
  );
  return {
    sharing: { mode: 'exclusive' },
    resourceName: WHOLE_GPU_RESOURCE,
    resourcePerReplica: gpusPerReplica,
    unitsPerGpu: 1,
    minGpusPerNode: gpusPerReplica,
    vramGuaranteed: true,
    memoryMiB,
    gpuShare: gpusPerReplica,
    poolSuffix: '',
    modeLabels: {},
    warnings: [],
    explanation: [`exclusive: ${reason}.`],
    decision: {
      choice:
        gpusPerReplica === 1
          ? '1 whole GPU per replica'
          : `${gpusPerReplica} whole GPUs per replica`,
      reason,
      considered: [],
    },
  };
}
