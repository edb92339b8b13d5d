/**
 * A pool's capacity in units of its resource and the picture of its MIG
 * layout, read from the pool and its configs with gpu-common's rules
 * (`unitsPerGpuOf`, `liveMigLayout`: what the planner reads too).
 */
import {
  findModel,
  fitMig,
  liveMigLayout,
  unitsPerGpuOf,
  type GpuCatalog,
  type MigGpuPicture,
  type PoolState,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';

const PHYSICAL_GPU = 'nvidia.com/gpu';

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
  if (physical !== undefined) return physical * unitsPerGpuOf(pool, repoState);
  return pool.limits?.[pool.resourceName] ?? pool.limit;
}

/** Where each MIG instance sits on one GPU of a MIG pool (NVIDIA's start slots). */
export function migPicture(
  pool: PoolState,
  repoState: RepoState,
  catalog: GpuCatalog,
): MigGpuPicture | undefined {
  const layout = liveMigLayout(pool, repoState);
  const model = pool.gpuModel ? findModel(catalog, pool.gpuModel) : undefined;
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
