import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';

export interface GpuModelChoice {
  id: string;
  /** What the form shows, e.g. `NVIDIA L4 — 22 GiB, MIG no, from $0.80/GPU-hour`. */
  label: string;
}

/**
 * The GPU model choices of the gpu-workload template, derived from the
 * catalog: memory as the planner sees it and the cheapest on-demand price
 * per GPU-hour among the instance types carrying the model. The template's
 * `enum` / `enumNames` must equal this list (a test checks it), so the form
 * never offers a model the planner does not know.
 */
export function gpuModelChoices(catalog: GpuCatalog): GpuModelChoice[] {
  return catalog.models.map(model => {
    const prices = catalog.instanceTypes
      .filter(t => t.gpuModel === model.id && t.onDemandUsdPerHour > 0)
      .map(t => t.onDemandUsdPerHour / t.gpusPerNode);
    const price =
      prices.length > 0
        ? `from $${Math.min(...prices).toFixed(2)}/GPU-hour`
        : 'price unknown';
    const memoryGiB = Math.floor((model.memoryMiB / 1024) * 10) / 10;
    const mig = model.mig ? 'MIG' : 'no MIG';
    return {
      id: model.id,
      label: `${model.displayName} — ${memoryGiB} GiB, ${mig}, ${price}`,
    };
  });
}
