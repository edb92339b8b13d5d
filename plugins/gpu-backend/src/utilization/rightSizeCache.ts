/**
 * Right-size suggestions, planned once per (index snapshot, measured
 * figures): the planner takes milliseconds against thousands of pools, and
 * an entity page is opened again and again between two refreshes. A new
 * snapshot (another repository) or new figures (another window read) plan
 * again; old snapshots' entries go with them.
 */
import type {
  GpuAllocation,
  RightSizeSuggestion,
} from '@gpu-gitops/plugin-gpu-common';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';

interface Entry {
  /** The figures the suggestion was planned from. */
  figures: string;
  suggestion: RightSizeSuggestion | undefined;
}

export class RightSizeCache {
  private readonly bySnapshot = new WeakMap<
    IndexSnapshot,
    Map<string, Entry>
  >();

  suggestionOf(
    allocation: GpuAllocation,
    snapshot: IndexSnapshot,
    plan: () => RightSizeSuggestion | undefined,
  ): RightSizeSuggestion | undefined {
    let entries = this.bySnapshot.get(snapshot);
    if (!entries) {
      entries = new Map();
      this.bySnapshot.set(snapshot, entries);
    }
    const key = `${allocation.cluster}/${allocation.id}`;
    const u = allocation.utilization;
    // What rightSize reads of the measurement (and the request it changes).
    const figures = JSON.stringify([
      u?.attribution,
      u?.vramPeakMiB,
      u?.vramAllottedMiB,
      u?.window,
      allocation.requestSpec,
      allocation.usdPerMonth,
    ]);
    const cached = entries.get(key);
    if (cached?.figures === figures) return cached.suggestion;
    const suggestion = plan();
    entries.set(key, { figures, suggestion });
    return suggestion;
  }
}
