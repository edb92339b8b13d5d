import { GpuInputError } from '../errors';
import { formatRequestedGiB } from '../format/units';
import { gib, requestedMiB } from './modeDecision';

/** The rule of the refusal when the asked VRAM is more than the GPUs a replica gets hold. */
export const VRAM_EXCEEDS_GPU = 'vram-exceeds-gpu';

/**
 * Refuses a request whose VRAM per replica is more than the memory of the
 * GPUs one replica gets (`memoryMiB`, of `gpus`: "one a10g", "2 x a10g"):
 * whole GPUs, a GPU's time slices and a DRA claim of one GPU never reach
 * the memory of another GPU. `advice` says what to do instead.
 */
export function refuseVramAboveGpus(
  vramGiB: number,
  gpus: string,
  memoryMiB: number,
  advice: string,
): void {
  if (requestedMiB(vramGiB) <= memoryMiB) return;
  throw new GpuInputError([
    {
      path: 'spec.gpu.vramGiB',
      rule: VRAM_EXCEEDS_GPU,
      message: `${formatRequestedGiB(vramGiB)} does not fit ${gpus} (${gib(memoryMiB)}); ${advice}`,
    },
  ]);
}
