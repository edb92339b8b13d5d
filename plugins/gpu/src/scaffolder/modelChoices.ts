import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import { formatGiB } from '../components/format/format';

export interface ModelChoice {
  id: string;
  /** e.g. `NVIDIA L4 — 22.3 GiB, no MIG, from $0.80/GPU-hour` */
  label: string;
}

/**
 * The picker's model list from the GPU catalog: memory and the cheapest
 * on-demand price per GPU-hour among the instance types carrying the model,
 * labelled like the gpu-workload template's model choices.
 */
export function modelChoices(catalog: GpuCatalog): ModelChoice[] {
  return catalog.models.map(model => {
    const prices = catalog.instanceTypes
      .filter(t => t.gpuModel === model.id && t.onDemandUsdPerHour > 0)
      .map(t => t.onDemandUsdPerHour / t.gpusPerNode);
    const price =
      prices.length > 0
        ? `from $${Math.min(...prices).toFixed(2)}/GPU-hour`
        : 'price unknown';
    const mig = model.mig ? 'MIG' : 'no MIG';
    return {
      id: model.id,
      label: `${model.displayName} — ${formatGiB(model.memoryMiB)}, ${mig}, ${price}`,
    };
  });
}
