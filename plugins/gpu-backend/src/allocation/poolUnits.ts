/**
 * What one physical GPU of a pool offers, read from the pool and its
 * configs: slices (time-slicing), clients (MPS) or MIG instances of the
 * pool's profile. Capacity = physical GPU limit x units per GPU.
 */
import {
  findModel,
  fitMig,
  type GpuCatalog,
  type GpuModel,
  type MigGpuPicture,
  type PoolState,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';

const PHYSICAL_GPU = 'nvidia.com/gpu';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The MIG layout (profile -> instances per GPU) a pool's mig-parted entry applies, if any. */
export function migLayoutOf(
  pool: PoolState,
  repoState: RepoState,
): Record<string, number> | undefined {
  if (!pool.migConfigName) return undefined;
  const entries = repoState.migConfigs[pool.migConfigName];
  if (!Array.isArray(entries)) return undefined;
  for (const entry of entries) {
    if (!isRecord(entry) || entry['mig-enabled'] !== true) continue;
    const devices = entry['mig-devices'];
    if (!isRecord(devices)) continue;
    return Object.fromEntries(
      Object.entries(devices)
        .map(([profile, count]) => [profile, Number(count)] as const)
        .filter(([, count]) => Number.isInteger(count) && count > 0),
    );
  }
  return undefined;
}

export function modelOf(
  pool: PoolState | undefined,
  catalog: GpuCatalog,
): GpuModel | undefined {
  return pool?.gpuModel ? findModel(catalog, pool.gpuModel) : undefined;
}

/** Units of the pool's resource one physical GPU offers (1 for exclusive / DRA). */
export function unitsPerGpu(pool: PoolState, repoState: RepoState): number {
  switch (pool.sharingMode) {
    case 'time-slicing':
    case 'mps':
      return pool.slicesPerGpu ?? 1;
    case 'mig': {
      const layout = migLayoutOf(pool, repoState);
      if (!layout) return 1;
      if (pool.migProfile && layout[pool.migProfile]) {
        return layout[pool.migProfile];
      }
      return Object.values(layout).reduce((a, b) => a + b, 0) || 1;
    }
    default:
      return 1;
  }
}

/**
 * Capacity in units of the pool's resource: the NodePool limit on physical
 * GPUs times units per GPU, or a limit on the resource itself; undefined when
 * the pool is unlimited.
 */
export function poolCapacity(
  pool: PoolState,
  repoState: RepoState,
): number | undefined {
  const physical = pool.limits?.[PHYSICAL_GPU];
  if (physical !== undefined) return physical * unitsPerGpu(pool, repoState);
  return pool.limits?.[pool.resourceName] ?? pool.limit;
}

/** Where each MIG instance sits on one GPU of a MIG pool (NVIDIA's start slots). */
export function migPicture(
  pool: PoolState,
  repoState: RepoState,
  catalog: GpuCatalog,
): MigGpuPicture | undefined {
  const layout = migLayoutOf(pool, repoState);
  const model = modelOf(pool, catalog);
  if (!layout || !model?.mig) return undefined;
  const fit = fitMig(model, layout);
  if (!fit.fits) return undefined;
  return {
    memorySlices: model.mig.memorySlices,
    instances: [...fit.placement]
      .sort((a, b) => a.start - b.start)
      .map(p => ({
        profile: p.profile,
        start: p.start,
        memorySlices: p.memorySlices,
      })),
  };
}
