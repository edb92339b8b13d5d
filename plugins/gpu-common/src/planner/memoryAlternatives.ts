import { monthlyCentsOf } from '../capacity/poolCost';
import type { GpuModel, MachineProvider } from '../catalog/types';
import {
  modelUnavailable,
  sharingModeUnavailable,
} from '../cluster/capabilities';
import type { ClusterGpuStack } from '../cluster/gpuStack';
import type { ClusterProfile } from '../cluster/types';
import type { GpuRequest } from '../request/types';
import { instanceTypesOf, type CatalogIndex } from './catalogIndex';
import { gib, requestedMiB } from './modeDecision';
import { MIN_MPS_REPLICAS, mpsPinnedMiB } from './sharingMps';
import { MIN_TIME_SLICES, timeSliceMiB } from './sharingTimeSlicing';

/** How many larger models to name: enough to choose, few enough to read. */
const MAX_MODELS = 3;

/**
 * What a request whose memory does not fit a shared slice of `model` could
 * ask for instead, named from the catalog: the same model exclusive, MPS or
 * time-slicing on the cheapest models whose fewest slices hold it. One
 * sentence, for the refusal the form shows under "GPU memory per replica".
 */
export function memoryAlternatives(
  request: GpuRequest,
  model: GpuModel,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  stack?: ClusterGpuStack,
): string {
  const vramMiB = requestedMiB(request.spec.gpu.vramGiB);
  const mode = request.spec.gpu.sharing;
  // Models the cluster can launch, cheapest one-node price first.
  const priced = index.models
    .map(m => {
      const prices = instanceTypesOf(index, provider, m.id)
        .map(monthlyCentsOf)
        .filter(c => c > 0);
      return {
        model: m,
        cents: prices.length ? Math.min(...prices) : Infinity,
      };
    })
    .filter(
      m =>
        m.model.id !== model.id && !modelUnavailable(cluster, index, m.model),
    )
    .sort((a, b) => a.cents - b.cents || (a.model.id < b.model.id ? -1 : 1))
    .map(m => m.model);
  const options: string[] = [];
  if (vramMiB <= model.memoryMiB) {
    options.push(
      `sharing "exclusive" (a whole ${model.id}: ${gib(model.memoryMiB)})`,
    );
  }
  if (mode !== 'mps' && !sharingModeUnavailable(cluster, 'mps', stack)) {
    const mps = [model, ...priced]
      .filter(m => mpsPinnedMiB(m, MIN_MPS_REPLICAS) >= vramMiB)
      .slice(0, MAX_MODELS);
    if (mps.length > 0) {
      options.push(
        `sharing "mps" (memory pinned per client) on ${mps
          .map(m => `${m.id} (${gib(m.memoryMiB)})`)
          .join(', ')}`,
      );
    }
  }
  // The fewest shared slices (2 time slices, 2 MPS clients) must hold it.
  const larger = priced
    .filter(
      m =>
        Math.min(
          timeSliceMiB(m, MIN_TIME_SLICES),
          mpsPinnedMiB(m, MIN_MPS_REPLICAS),
        ) >= vramMiB,
    )
    .slice(0, MAX_MODELS);
  if (larger.length > 0) {
    options.push(
      `a larger model for ${mode}: ${larger.map(m => `${m.id} (${gib(m.memoryMiB)})`).join(', ')}`,
    );
  }
  options.push('model "auto" (the cheapest model that fits)');
  const last = options.pop();
  return `Instead, ask for ${options.length ? `${options.join('; ')}; or ` : ''}${last}`;
}
