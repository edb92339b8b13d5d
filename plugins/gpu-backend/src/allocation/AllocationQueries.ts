/**
 * Allocations and pool summaries of one index snapshot, computed on first
 * use and kept until the next refresh (a snapshot is immutable), so repeated
 * API calls do not re-plan.
 */
import type { GpuAllocation, GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import type { IndexedWorkload, IndexSnapshot } from '../repoIndex/RepoIndex';
import { computeAllocation } from './computeAllocation';
import { summarisePools, type IndexedPoolSummary } from './poolSummaries';

interface SnapshotMemo {
  allocations: Map<string, GpuAllocation>;
  pools?: IndexedPoolSummary[];
}

export class AllocationQueries {
  private readonly memo = new WeakMap<IndexSnapshot, SnapshotMemo>();

  constructor(private readonly catalog: GpuCatalog) {}

  private memoFor(snapshot: IndexSnapshot): SnapshotMemo {
    let memo = this.memo.get(snapshot);
    if (!memo) {
      memo = { allocations: new Map() };
      this.memo.set(snapshot, memo);
    }
    return memo;
  }

  allocation(
    snapshot: IndexSnapshot,
    workload: IndexedWorkload,
  ): GpuAllocation {
    const memo = this.memoFor(snapshot);
    let allocation = memo.allocations.get(workload.id);
    if (!allocation) {
      allocation = computeAllocation(workload, snapshot, this.catalog);
      memo.allocations.set(workload.id, allocation);
    }
    return allocation;
  }

  pools(snapshot: IndexSnapshot): IndexedPoolSummary[] {
    const memo = this.memoFor(snapshot);
    memo.pools ??= summarisePools(snapshot, this.catalog);
    return memo.pools;
  }
}
