/**
 * Allocations, pool costs and pool summaries of one index snapshot, computed
 * on first use and kept until the next refresh (a snapshot is immutable), so
 * repeated API calls do not recompute them.
 */
import {
  costOfPool,
  runSteps,
  type GpuAllocation,
  type GpuCatalog,
  type PoolCost,
} from '@gpu-gitops/plugin-gpu-common';
import { processTurns, runStepsInTurns } from '@gpu-gitops/plugin-gpu-node';
import type {
  ClusterIndex,
  IndexedWorkload,
  IndexSnapshot,
} from '../repoIndex/indexSnapshot';
import { computeAllocation, type AllocationContext } from './computeAllocation';
import {
  clusterPoolSummarySteps,
  sortedPoolSummaries,
  type IndexedPoolSummary,
} from './poolSummaries';
import { requestsByWorkload } from './requestsByWorkload';

interface SnapshotMemo {
  allocations: Map<string, GpuAllocation>;
  poolCosts: Map<string, PoolCost | undefined>;
  requestsByWorkload?: Map<string, string>;
  pools?: IndexedPoolSummary[];
}

/** A cluster's pool summaries and the objects they were computed from. */
interface ClusterSummaries {
  inputs: unknown[];
  pools: IndexedPoolSummary[];
}

/**
 * What a cluster's summaries are computed from (`clusterPoolSummarySteps`):
 * its profile, each part of its repository state, and the stored requests.
 * A refresh that changed only some workload folders hands the next snapshot
 * the other clusters' parts as the same objects (`snapshotBuilder.ts`
 * `update`), so their summaries are still right.
 */
function summaryInputs(
  cluster: ClusterIndex,
  snapshot: IndexSnapshot,
): unknown[] {
  return [
    cluster.profile,
    snapshot.requests,
    ...Object.entries(cluster.repoState).flat(),
  ];
}

const sameInputs = (a: unknown[], b: unknown[]) =>
  a.length === b.length && a.every((input, i) => input === b[i]);

/** @public */
export class AllocationQueries {
  private readonly memo = new WeakMap<IndexSnapshot, SnapshotMemo>();
  /**
   * Each cluster's latest pool summaries: after a merge that touched one
   * cluster, the GPU page summarises that cluster's pools, not every
   * cluster's (20k pools at a large platform's size), and the other pools
   * stay the same objects, whose text `GET /pools` keeps (`poolsJson.ts`).
   */
  private readonly clusterSummaries = new Map<string, ClusterSummaries>();

  constructor(private readonly catalog: GpuCatalog) {}

  private memoFor(snapshot: IndexSnapshot): SnapshotMemo {
    let memo = this.memo.get(snapshot);
    if (!memo) {
      memo = {
        allocations: new Map(),
        poolCosts: new Map(),
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
          const indexed = snapshot.clusters.get(cluster);
          const state = indexed?.repoState;
          const pool = state?.pools.find(p => p.name === name);
          // A pool without a ledger counts its workloads: the planner's
          // ledgerOf groups them by pool once per list, never per pool. The
          // profile prices it as the planner does (a static cluster's
          // inventory fixes its by-GPU pools' nodes).
          memo.poolCosts.set(
            key,
            pool &&
              costOfPool(
                pool,
                state,
                this.catalog,
                undefined,
                indexed?.profile,
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

  allocation(
    snapshot: IndexSnapshot,
    workload: IndexedWorkload,
  ): GpuAllocation {
    const memo = this.memoFor(snapshot);
    // The same `<namespace>/<name>` may run on several clusters.
    const key = `${workload.cluster}\u0000${workload.id}`;
    let allocation = memo.allocations.get(key);
    if (!allocation) {
      allocation = computeAllocation(
        workload,
        snapshot,
        this.catalog,
        this.context(snapshot),
      );
      memo.allocations.set(key, allocation);
    }
    return allocation;
  }

  pools(snapshot: IndexSnapshot): IndexedPoolSummary[] {
    const memo = this.memoFor(snapshot);
    memo.pools ??= sortedPoolSummaries(
      [...snapshot.clusters].map(
        ([name, cluster]) =>
          this.keptPools(snapshot, name, cluster) ??
          this.keepPools(
            snapshot,
            name,
            cluster,
            runSteps(this.summarySteps(snapshot, name, cluster)),
          ),
      ),
    );
    return memo.pools;
  }

  /**
   * `pools(snapshot)` computed ahead, one pool at a time in turns of the
   * event loop: right after a refresh, so that the GPU page's first viewer
   * does not pay for the summaries (a second for 20k pools). Clusters whose
   * summaries are kept cost nothing. Gives up between clusters, with
   * undefined, once `wanted()` is false (a newer snapshot has landed); a
   * request meanwhile computes what is still missing itself.
   */
  async preparePools(
    snapshot: IndexSnapshot,
    {
      turn = processTurns,
      wanted = () => true,
    }: { turn?: () => Promise<void>; wanted?: () => boolean } = {},
  ): Promise<IndexedPoolSummary[] | undefined> {
    for (const [name, cluster] of snapshot.clusters) {
      if (!wanted()) return undefined;
      if (this.keptPools(snapshot, name, cluster)) continue;
      const pools = await runStepsInTurns(
        this.summarySteps(snapshot, name, cluster),
        turn,
      );
      // A request may have summarised the cluster during those turns:
      // its objects stay the kept ones (their text may be kept too).
      if (!this.keptPools(snapshot, name, cluster))
        this.keepPools(snapshot, name, cluster, pools);
    }
    return wanted() ? this.pools(snapshot) : undefined;
  }

  /** The cluster's kept summaries, if they were computed from this snapshot's objects. */
  private keptPools(
    snapshot: IndexSnapshot,
    name: string,
    cluster: ClusterIndex,
  ): IndexedPoolSummary[] | undefined {
    const kept = this.clusterSummaries.get(name);
    return kept && sameInputs(kept.inputs, summaryInputs(cluster, snapshot))
      ? kept.pools
      : undefined;
  }

  private keepPools(
    snapshot: IndexSnapshot,
    name: string,
    cluster: ClusterIndex,
    pools: IndexedPoolSummary[],
  ): IndexedPoolSummary[] {
    this.clusterSummaries.set(name, {
      inputs: summaryInputs(cluster, snapshot),
      pools,
    });
    return pools;
  }

  private summarySteps(
    snapshot: IndexSnapshot,
    name: string,
    cluster: ClusterIndex,
  ) {
    return clusterPoolSummarySteps(
      name,
      cluster,
      snapshot,
      this.catalog,
      this.context(snapshot),
    );
  }
}
