import type { GpuModel } from '../catalog/types';
import {
  gpuShareOfUnit,
  liveMigLayout,
  unitsPerGpuOf,
} from '../capacity/poolUnits';
import { mpsPinnedMiB } from './sharingMps';
import { timeSliceMiB } from './sharingTimeSlicing';
import type { PoolState, RepoState } from './types';

/**
 *  What one replica gets on a pool, read from the pool as the repository holds it.
 *
 * @public
 */
export interface ReplicaOnPool {
  /** Memory a replica can count on (or shares, when not guaranteed), in MiB. */
  memoryMiB: number;
  vramGuaranteed: boolean;
  /**
   * Physical GPUs one replica holds: its units over the units one GPU of the
   * pool offers. What its quota and cost count, as the planner's `gpuShare`.
   */
  gpuShare: number;
  /** MIG only: the part of a GPU's compute its instances run on (1g.10gb: 1/7 each). */
  computeShare?: number;
  migProfile?: string;
}

/**
 * A replica of `unitsPerReplica` units on `pool`: the same figures the
 * planner gives a request on that pool (time slices and MPS clients split
 * the GPU's memory, a MIG instance has its profile's, whole GPUs their own),
 * for workloads the catalog card shows without re-planning them.
 *
 * @public
 */
export function replicaOnPool(
  pool: PoolState,
  model: GpuModel | undefined,
  repoState: RepoState | undefined,
  unitsPerReplica: number,
): ReplicaOnPool {
  const unitsPerGpu = unitsPerGpuOf(pool, repoState);
  // On a mixed MIG layout too: one of the GPU's instances of the profile.
  const gpuShare = unitsPerReplica * gpuShareOfUnit(pool, repoState);
  switch (pool.sharingMode) {
    case 'time-slicing':
      return {
        memoryMiB: model
          ? timeSliceMiB(model, unitsPerGpu) * unitsPerReplica
          : 0,
        vramGuaranteed: false,
        gpuShare,
      };
    case 'mps':
      return {
        memoryMiB: model
          ? mpsPinnedMiB(model, unitsPerGpu) * unitsPerReplica
          : 0,
        vramGuaranteed: model !== undefined,
        gpuShare,
      };
    case 'mig': {
      const layout = liveMigLayout(pool, repoState);
      const name =
        pool.migProfile ??
        (layout && Object.keys(layout).length === 1
          ? Object.keys(layout)[0]
          : undefined);
      const profile = model?.mig?.profiles.find(p => p.name === name);
      if (!profile || !model?.mig) {
        return {
          memoryMiB: 0,
          vramGuaranteed: false,
          gpuShare,
          ...(name ? { migProfile: name } : {}),
        };
      }
      return {
        memoryMiB: profile.memoryMiB * unitsPerReplica,
        vramGuaranteed: true,
        gpuShare,
        computeShare:
          (profile.computeSlices / model.mig.computeSlices) * unitsPerReplica,
        migProfile: profile.name,
      };
    }
    default:
      return {
        memoryMiB: (model?.memoryMiB ?? 0) * unitsPerReplica,
        vramGuaranteed: model !== undefined,
        gpuShare,
      };
  }
}
