/**
 * Units of a pool and the share of a GPU one unit gives, read from the pool
 * as the repository holds it: the one rule the planner (reuse, limits,
 * marginal cost, what a replica gets), the allocation's pool summaries and
 * the quota (gpu-node `policy/gpuUsage.ts`) count by.
 */
import type { PoolState, RepoState } from '../planner/types';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The MIG layout (profile → instances per GPU) a pool's nodes run: the
 * mig-parted entry its `nvidia.com/mig.config` label names, the first
 * enabled one that holds the pool's profile (else the first enabled one).
 * Undefined when the repository does not hold that config.
 *
 * @public
 */
export function liveMigLayout(
  pool: PoolState,
  repoState: RepoState | undefined,
): Record<string, number> | undefined {
  if (!pool.migConfigName) return undefined;
  const entries = repoState?.migConfigs[pool.migConfigName];
  if (!Array.isArray(entries)) return undefined;
  const layouts = entries.flatMap(entry => {
    if (!isRecord(entry) || entry['mig-enabled'] !== true) return [];
    const devices = entry['mig-devices'];
    if (!isRecord(devices)) return [];
    const layout = Object.fromEntries(
      Object.entries(devices)
        .map(([profile, count]) => [profile, Number(count)] as const)
        .filter(([, count]) => Number.isInteger(count) && count > 0),
    );
    return Object.keys(layout).length > 0 ? [layout] : [];
  });
  return (
    layouts.find(l => pool.migProfile !== undefined && l[pool.migProfile]) ??
    layouts[0]
  );
}

/**
 * Units of a pool's resource one physical GPU offers, as its nodes run:
 * time-slicing slices, MPS clients and DRA shares from the pool, MIG instances of its
 * profile from its live layout (every instance when the profile is unknown:
 * the `single` strategy advertises them all as `nvidia.com/gpu`), else 1.
 *
 * @public
 */
export function unitsPerGpuOf(
  pool: PoolState,
  repoState: RepoState | undefined,
): number {
  // DRA of static MIG instances (planner/sharingDraMig.ts): one claim per instance, as MIG.
  const mode =
    pool.sharingMode === 'dra' && pool.migProfile ? 'mig' : pool.sharingMode;
  switch (mode) {
    case 'time-slicing':
    case 'mps':
    case 'dra': // DRA: the driver's consumable shares (planner/sharingDra.ts)
      return pool.slicesPerGpu ?? 1;
    case 'mig': {
      const layout = liveMigLayout(pool, repoState);
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
 * Physical GPUs one of the `unitsPerGpu` units of a GPU holds: the share a
 * planned replica of a new pool gets, and (below) one of an existing pool.
 */
export function gpuShareOfUnits(unitsPerGpu: number): number {
  return 1 / unitsPerGpu;
}

/**
 * Physical GPUs one unit of a pool's resource holds: 1 / the units one GPU
 * offers (a time slice of 4: 0.25; one of the 2 3g.40gb instances of its
 * GPU: 0.5; a whole GPU when the MIG layout is not in the repository, so a
 * quota is never under-counted). What a replica's share, its quota use and
 * its cost count, wherever they are shown.
 *
 * @public
 */
export function gpuShareOfUnit(
  pool: PoolState,
  repoState: RepoState | undefined,
): number {
  return gpuShareOfUnits(unitsPerGpuOf(pool, repoState));
}

/** The resource Karpenter limits GPU pools by: physical GPUs. */
const PHYSICAL_GPU = 'nvidia.com/gpu';

/**
 * A pool's capacity in units of its resource: its NodePool limit on physical
 * GPUs times the units one GPU offers, or a limit on the resource itself;
 * undefined when the pool is unlimited.
 *
 * @public
 */
export function poolCapacityUnits(
  pool: PoolState,
  repoState: RepoState | undefined,
): number | undefined {
  const physical = pool.limits?.[PHYSICAL_GPU];
  if (physical !== undefined) return physical * unitsPerGpuOf(pool, repoState);
  return pool.limits?.[pool.resourceName] ?? pool.limit;
}
