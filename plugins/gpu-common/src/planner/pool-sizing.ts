import type { GpuCatalog } from '../catalog/types';
import { indexCatalog, type CatalogIndex } from './catalog-index';
import type { PoolSizing } from './pool-limits';
import type { PoolState, RepoState } from './types';

/**
 * How an existing pool is sized, read from what the repository says about it:
 * units per GPU from its sharing (time-slicing / MPS replicas, the MIG
 * config's instances of its profile, 1 for whole GPUs) and GPUs per node from
 * its instance types in the catalog.
 */
export function sizingOfPool(
  pool: PoolState,
  catalog: GpuCatalog | CatalogIndex,
  repoState: RepoState | undefined,
): PoolSizing {
  const index =
    'instanceTypesByName' in catalog ? catalog : indexCatalog(catalog);
  return {
    resourceName: pool.resourceName,
    unitsPerGpu: unitsPerGpuOf(pool, repoState),
    gpuCounts: pool.instanceTypes
      .map(t => index.instanceTypesByName.get(t)?.gpusPerNode)
      .filter((n): n is number => n !== undefined),
    staticPool: pool.sharingMode === 'dra',
  };
}

function unitsPerGpuOf(pool: PoolState, repoState: RepoState | undefined) {
  switch (pool.sharingMode) {
    case 'time-slicing':
    case 'mps':
      return pool.slicesPerGpu ?? 1;
    case 'mig': {
      const entries = pool.migConfigName
        ? repoState?.migConfigs[pool.migConfigName]
        : undefined;
      let count = 0;
      for (const entry of Array.isArray(entries) ? entries : []) {
        const devices = (
          entry as { 'mig-devices'?: Record<string, unknown> }
        )?.['mig-devices'];
        const n = devices?.[pool.migProfile ?? ''];
        if (typeof n === 'number') count = Math.max(count, n);
      }
      return count > 0 ? count : 1;
    }
    default:
      return 1;
  }
}
