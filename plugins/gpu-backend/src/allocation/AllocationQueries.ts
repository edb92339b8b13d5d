/**
 * Allocations, pool costs and pool summaries of one index snapshot, computed
 * on first use and kept until the next refresh (a snapshot is immutable), so
 * repeated API calls do not recompute them.
 */
import {
  costOfPool,
  type GpuAllocation,
  type GpuCatalog,
  type PoolCost,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import type {
  IndexedWorkload,
  IndexSnapshot,
} from '../repoIndex/indexSnapshot';
import { computeAllocation, type AllocationContext } from './computeAllocation';
import { summarisePools, type IndexedPoolSummary } from './poolSummaries';
import { requestsByWorkload } from './requestsByWorkload';

interface SnapshotMemo {
  allocations: Map<string, GpuAllocation>;
  poolCosts: Map<string, PoolCost | undefined>;
  /** Per cluster, pool name -> the workloads the repository pins to it. */
  workloadsByPool: Map<string, Map<string, WorkloadState[]>>;
  requestsByWorkload?: Map<string, string>;
  pools?: IndexedPoolSummary[];
}

/** @public */
export class AllocationQueries {
  private readonly memo = new WeakMap<IndexSnapshot, SnapshotMemo>();

  constructor(private readonly catalog: GpuCatalog) {}

  private memoFor(snapshot: IndexSnapshot): SnapshotMemo {
    let memo = this.memo.get(snapshot);
    if (!memo) {
      memo = {
        allocations: new Map(),
        poolCosts: new Map(),
        workloadsByPool: new Map(),
      };
      this.memo.set(snapshot, memo);
    }
    return memo;
  }

  /** The pools' costs and the ledger names of workloads, for this snapshot. */
  context(snapshot: IndexSnapshot): AllocationContext {
    const memo = this.memoFor(snapshot);
    return {
      poolCost: (cluster, name) => {
        const key = `${cluster}\u0000${name}`;
        if (!memo.poolCosts.has(key)) {
          const state = snapshot.clusters.get(cluster)?.repoState;
          const pool = state?.pools.find(p => p.name === name);
          // A pool without a ledger counts its workloads: hand it only those,
          // so pricing a pool never scans 20k workloads.
          const workloads = state
            ? this.workloadsByPool(memo, cluster, state.workloads).get(name)
            : undefined;
          memo.poolCosts.set(
            key,
            pool &&
              costOfPool(
                pool,
                state && { ...state, workloads: workloads ?? [] },
                this.catalog,
              ),
          );
        }
        return memo.poolCosts.get(key);
      },
      requestOf: workload => {
        memo.requestsByWorkload ??= requestsByWorkload(snapshot);
        return memo.requestsByWorkload.get(workload.id) ?? workload.id;
      },
    };
  }

  private workloadsByPool(
    memo: SnapshotMemo,
    cluster: string,
    workloads: WorkloadState[],
  ): Map<string, WorkloadState[]> {
    let byPool = memo.workloadsByPool.get(cluster);
    if (!byPool) {
      byPool = new Map();
      for (const w of workloads) {
        if (!w.pool) continue;
        const list = byPool.get(w.pool);
        if (list) list.push(w);
        else byPool.set(w.pool, [w]);
      }
      memo.workloadsByPool.set(cluster, byPool);
    }
    return byPool;
  }

  allocation(
    snapshot: IndexSnapshot,
    workload: IndexedWorkload,
  ): GpuAllocation {
    const memo = this.memoFor(snapshot);
    let allocation = memo.allocations.get(workload.id);
    if (!allocation) {
      allocation = computeAllocation(
        workload,
        snapshot,
        this.catalog,
        this.context(snapshot),
      );
      memo.allocations.set(workload.id, allocation);
    }
    return allocation;
  }

  pools(snapshot: IndexSnapshot): IndexedPoolSummary[] {
    const memo = this.memoFor(snapshot);
    memo.pools ??= summarisePools(
      snapshot,
      this.catalog,
      this.context(snapshot),
    );
    return memo.pools;
  }
}
