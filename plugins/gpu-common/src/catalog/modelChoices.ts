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
 * (GiB, one decimal, rounded down so it never promises more) and, for one
 * provider's `machines` (a cluster's form), the cheapest on-demand price per
 * GPU-hour among its machines carrying the model. Without `machines` (the
 * template, which knows no cluster) no price is named: the cheapest of any
 * provider is a price the chosen cluster may not bill (a V100 32GB's Azure
 * $2.75 on the Review step of an AWS request whose GPU step said $3.90).
 *
 * @public
 */
export function gpuModelChoices(
  catalog: GpuCatalog,
  machines?: MachineProvider,
): GpuModelChoice[] {
  return catalog.models.map(model => {
    const memoryGiB = Math.floor((model.memoryMiB / 1024) * 10) / 10;
    const mig = model.mig ? 'MIG' : 'no MIG';
    const named = `${model.displayName} — ${memoryGiB} GiB, ${mig}`;
    if (machines === undefined) return { id: model.id, label: named };
    const prices = catalog.instanceTypes
      .filter(
        t =>
          t.gpuModel === model.id &&
          t.onDemandUsdPerHour > 0 &&
          t.provider === machines,
      )
      .map(t => t.onDemandUsdPerHour / t.gpusPerNode);
    const price =
      prices.length > 0
        ? `from $${Math.min(...prices).toFixed(2)}/GPU-hour`
        : 'price unknown';
    return { id: model.id, label: `${named}, ${price}` };
  });
}
