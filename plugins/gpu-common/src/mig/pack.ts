import type { MigProfile } from '../catalog/types';
import { compareStrings } from '../text/compareStrings';

/**
 *  One GPU instance placed on the GPU's memory slices `[start, start + memorySlices)`.
 *
 * @public
 */
export interface MigPlacement {
  profile: string;
  start: number;
  memorySlices: number;
  computeSlices: number;
}

export type PackResult =
  | { packed: true; placement: MigPlacement[] }
  | {
      packed: false;
      /** The instance no start slot could be found for, in packing order. */
      stuck: { profile: string; instance: number };
    };

/**
 * Pure interval packing, step 4 of `fitMig` (./fit.ts): give each instance a
 * start from its profile's `startSlots` so no two
 * `[start, start + memorySlices)` intervals overlap. Backtracking, largest
 * instances first (they have the fewest starts), identical instances with
 * increasing starts (no permutations of equal instances are retried). Max counts and compute slices are NOT
 * checked here — `fitMig` does that; tests use this to derive max counts from
 * geometry alone.
 */
export function packMigInstances(
  totalMemorySlices: number,
  instances: MigProfile[],
): PackResult {
  const order = [...instances].sort(
    (a, b) =>
      b.memorySlices - a.memorySlices ||
      a.startSlots.length - b.startSlots.length ||
      compareStrings(a.name, b.name),
  );
  const occupied: boolean[] = new Array(totalMemorySlices).fill(false);
  const starts: number[] = new Array(order.length).fill(-1);
  let deepest = 0;

  const isFree = (start: number, size: number): boolean => {
    if (start < 0 || start + size > totalMemorySlices) return false;
    for (let s = start; s < start + size; s++) if (occupied[s]) return false;
    return true;
  };
  const mark = (start: number, size: number, value: boolean) => {
    for (let s = start; s < start + size; s++) occupied[s] = value;
  };

  const place = (index: number): boolean => {
    if (index === order.length) return true;
    deepest = Math.max(deepest, index);
    const profile = order[index];
    const previous = index > 0 ? order[index - 1] : undefined;
    // Equal instances are interchangeable: only try starts after the previous one's.
    const minStart =
      previous && previous.name === profile.name ? starts[index - 1] + 1 : 0;
    for (const start of profile.startSlots) {
      if (start < minStart || !isFree(start, profile.memorySlices)) continue;
      mark(start, profile.memorySlices, true);
      starts[index] = start;
      if (place(index + 1)) return true;
      mark(start, profile.memorySlices, false);
      starts[index] = -1;
    }
    return false;
  };

  if (!place(0)) {
    const stuck = order[deepest];
    const instance = order
      .slice(0, deepest + 1)
      .filter(p => p.name === stuck.name).length;
    return { packed: false, stuck: { profile: stuck.name, instance } };
  }
  const placement = order
    .map((p, i) => ({
      profile: p.name,
      start: starts[i],
      memorySlices: p.memorySlices,
      computeSlices: p.computeSlices,
    }))
    .sort((a, b) => a.start - b.start);
  return { packed: true, placement };
}
