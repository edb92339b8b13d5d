import type { GpuCatalog } from '../catalog/types';
import type { Plan } from '../planner/types';
import { compareStrings } from '../text/compareStrings';
import type { MigConfigEntry } from './types';

/**
 * True when another catalog model has a MIG profile of the same name. Then a
 * layout entry without `device-filter` would be applied to that other GPU
 * too, where the same count may not fit (e.g. `1g.10gb` is x7 on A100-80GB
 * but x4 on A100-40GB; NVIDIA's defaults filter by PCI id there).
 */
export function isMigProfileAmbiguous(
  catalog: GpuCatalog,
  modelId: string,
  profiles: string[],
): boolean {
  return catalog.models.some(
    model =>
      model.id !== modelId &&
      model.mig?.profiles.some(p => profiles.includes(p.name)) === true,
  );
}

/**
 * The mig-parted `mig-configs` entry for a MIG plan: every GPU of the node in
 * MIG mode with the planned uniform layout. With a catalog, the entry carries
 * the model's PCI device ids whenever a profile name is ambiguous across GPUs.
 * Entries the planner already rendered (`sharing.migConfigEntries`) are used
 * as they are, so the config name keeps matching its content. An entry the
 * cluster reads from a ConfigMap written by hand
 * (`sharing.handWrittenConfigMap`) is there already: nothing to write.
 */
export function buildMigConfig(
  plan: Plan,
  catalog?: GpuCatalog,
): { name: string; entries: MigConfigEntry[] } | undefined {
  // A DRA plan of MIG instances: mig-parted cuts them, the driver serves them.
  const draMig =
    plan.sharing.mode === 'dra' && plan.sharing.migProfile !== undefined;
  if (plan.sharing.mode !== 'mig' && !draMig) return undefined;
  // GKE partitions the GPUs itself (the ComputeClass's gpuPartitionSize).
  if (plan.sharing.handWrittenConfigMap || plan.sharing.sharedByProvider) {
    return undefined;
  }
  const { migConfigName, migLayout } = plan.sharing;
  if (!migConfigName || !migLayout || Object.keys(migLayout).length === 0) {
    throw new Error(
      `Plan for pool ${plan.pool.name} (mig) lacks sharing.migConfigName or sharing.migLayout`,
    );
  }
  if (
    plan.sharing.migConfigEntries &&
    plan.sharing.migConfigEntries.length > 0
  ) {
    return { name: migConfigName, entries: plan.sharing.migConfigEntries };
  }
  const layout = Object.fromEntries(
    Object.entries(migLayout).sort(([a], [b]) => compareStrings(a, b)),
  );
  const entry: MigConfigEntry = {
    devices: 'all',
    'mig-enabled': true,
    'mig-devices': layout,
  };
  const model = catalog?.models.find(m => m.id === plan.pool.gpuModel);
  const pciDeviceIds = model?.mig?.pciDeviceIds ?? [];
  if (
    catalog &&
    pciDeviceIds.length > 0 &&
    isMigProfileAmbiguous(catalog, plan.pool.gpuModel, Object.keys(layout))
  ) {
    return {
      name: migConfigName,
      entries: [{ 'device-filter': [...pciDeviceIds], ...entry }],
    };
  }
  return { name: migConfigName, entries: [entry] };
}
