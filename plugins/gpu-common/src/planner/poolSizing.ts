import type { GpuCatalog, InstanceType } from '../catalog/types';
import { indexCatalog, type CatalogIndex } from './catalogIndex';
import type { PoolSizing } from './poolLimits';
import { unitsPerGpuOf } from '../capacity/poolUnits';
import type { PoolState, RepoState } from './types';

function indexOf(catalog: GpuCatalog | CatalogIndex): CatalogIndex {
  return 'instanceTypesByName' in catalog ? catalog : indexCatalog(catalog);
}

/** The pool's instance types the catalog knows (unknown names dropped). */
export function machinesOfPool(
  pool: PoolState,
  catalog: GpuCatalog | CatalogIndex,
): InstanceType[] {
  const index = indexOf(catalog);
  return pool.instanceTypes
    .map(t => index.instanceTypesByName.get(t))
    .filter((t): t is InstanceType => t !== undefined);
}

/**
 * How an existing pool is sized, read from what the repository says about it:
 * units per GPU from its sharing (time-slicing / MPS replicas, the MIG
 * config's instances of its profile, 1 for whole GPUs) and GPUs per node from
 * its instance types in the catalog.
 *
 * @public
 */
export function sizingOfPool(
  pool: PoolState,
  catalog: GpuCatalog | CatalogIndex,
  repoState: RepoState | undefined,
): PoolSizing {
  return {
    resourceName: pool.resourceName,
    unitsPerGpu: unitsPerGpuOf(pool, repoState),
    gpuCounts: machinesOfPool(pool, catalog).map(t => t.gpusPerNode),
    staticPool: pool.sharingMode === 'dra',
  };
}
