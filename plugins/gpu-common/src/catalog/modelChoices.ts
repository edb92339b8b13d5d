import type { GpuCatalog, MachineProvider } from './types';

/** @public */
export interface GpuModelChoice {
  id: string;
  /** What a form shows, e.g. `NVIDIA L4 — 22.3 GiB, no MIG, from $0.80/GPU-hour`. */
  label: string;
}

/**
 * GPU model choices for forms (the gpu-workload template's `enum` /
 * `enumNames` and the GpuRequestPicker): memory as the planner sees it
 * (GiB, one decimal, rounded down so it never promises more) and the
 * cheapest on-demand price per GPU-hour among the machines carrying the model
 * (of one provider when `machines` is given: a cluster's form shows its own).
 *
 * @public
 */
export function gpuModelChoices(
  catalog: GpuCatalog,
  machines?: MachineProvider,
): GpuModelChoice[] {
  return catalog.models.map(model => {
    const prices = catalog.instanceTypes
      .filter(
        t =>
          t.gpuModel === model.id &&
          t.onDemandUsdPerHour > 0 &&
          (machines === undefined || t.provider === machines),
      )
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
