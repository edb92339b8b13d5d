import type { CapacityType, SharingMode } from '../request/types';
import type { CatalogIndex } from './catalog-index';
import type { PoolState, RepoState } from './types';

/** What a pool must offer to take this request. */
export interface PoolRequirements {
  gpuModel: string;
  sharingMode: SharingMode;
  /** time-slicing / MPS replicas per GPU. */
  slicesPerGpu?: number;
  migProfile?: string;
  resourceName: string;
  capacityTypes: CapacityType[];
  /** Instance types (names) that can hold one replica of this request. */
  usableInstanceTypes: ReadonlySet<string>;
}

/**
 * A pool in the repository can take the request when it runs the same model
 * in the same mode with the same slicing / MIG profile, exposes the same
 * resource, allows every capacity type the request accepts, and (when its
 * instance types are known) can launch at least one type that holds a replica.
 */
export function isCompatiblePool(
  pool: PoolState,
  needs: PoolRequirements,
): boolean {
  if (pool.gpuModel !== needs.gpuModel) return false;
  if (pool.sharingMode !== needs.sharingMode) return false;
  if (pool.resourceName !== needs.resourceName) return false;
  if (
    (needs.sharingMode === 'time-slicing' || needs.sharingMode === 'mps') &&
    pool.slicesPerGpu !== needs.slicesPerGpu
  ) {
    return false;
  }
  if (needs.sharingMode === 'mig' && pool.migProfile !== needs.migProfile) {
    return false;
  }
  if (!needs.capacityTypes.every(t => pool.capacityTypes.includes(t))) {
    return false;
  }
  if (
    pool.instanceTypes.length > 0 &&
    !pool.instanceTypes.some(t => needs.usableInstanceTypes.has(t))
  ) {
    return false;
  }
  return true;
}

/** The first compatible pool by name (deterministic), or undefined. */
export function findReusablePool(
  repoState: RepoState | undefined,
  needs: PoolRequirements,
): PoolState | undefined {
  if (!repoState) return undefined;
  let best: PoolState | undefined;
  for (const pool of repoState.pools) {
    if (!isCompatiblePool(pool, needs)) continue;
    if (!best || pool.name < best.name) best = pool;
  }
  return best;
}

/** Instance types of a pool that the catalog knows (unknown names dropped). */
export function knownInstanceTypes(
  pool: PoolState,
  index: CatalogIndex,
): string[] {
  return pool.instanceTypes.filter(t => index.instanceTypesByName.has(t));
}
