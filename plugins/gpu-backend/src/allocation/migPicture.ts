/**
 * The picture of a MIG pool's layout, read from the pool and its configs
 * with gpu-common's rules (`liveMigLayout`: what the planner reads too).
 */
import {
  findModel,
  fitMig,
  liveMigLayout,
  type GpuCatalog,
  type MigGpuPicture,
  type PoolState,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';

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
