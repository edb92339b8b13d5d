import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import type { CatalogIndex } from './catalogIndex';
import { formatRequestedGiB } from '../format/units';
import { MIB_PER_GIB, gib } from './modeDecision';

/** The request's model value that asks the planner to choose. */
export const AUTO_MODEL = 'auto';

/** The catalog model a request names; GpuInputError on `spec.gpu.model` if unknown. */
export function resolveModel(index: CatalogIndex, id: string): GpuModel {
  const model = index.modelsById.get(id);
  if (!model) {
    const known = index.models.map(m => m.id).join(', ');
    throw new GpuInputError([
      {
        path: 'spec.gpu.model',
        rule: 'unknown-model',
        message: `"${id}" is not in the GPU catalog; use "auto" or one of: ${known}`,
      },
    ]);
  }
  return model;
}

/**
 * Rejects VRAM no GPU of the catalog can hold (times gpusPerReplica for
 * exclusive requests), before any model is tried, with one clear message.
 */
export function checkLargestGpu(
  request: GpuRequest,
  index: CatalogIndex,
): void {
  const { vramGiB, gpusPerReplica, sharing } = request.spec.gpu;
  const gpus = sharing === 'exclusive' ? gpusPerReplica : 1;
  const largest = index.maxMemoryMiB * gpus;
  if (vramGiB * MIB_PER_GIB > largest) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: 'exceeds-largest-gpu',
        message: `${formatRequestedGiB(vramGiB)} is more than ${gpus > 1 ? `${gpus} x ` : ''}the largest GPU in the catalog (${gib(index.maxMemoryMiB)})${sharing === 'exclusive' ? '; ask for more GPUs per replica' : '; use sharing "exclusive" with several GPUs per replica'}`,
      },
    ]);
  }
}
