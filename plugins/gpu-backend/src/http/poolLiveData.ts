/**
 * What `GET /pools` adds to each pool from live data: its GPUs' figures
 * (one computation per cluster with live data, priced by the same cost
 * model as the pool's `cost`) and where its cluster differs from Git.
 */
import type {
  DriftFinding,
  PoolUtilization,
} from '@gpu-gitops/plugin-gpu-common';
import type { IndexedPoolSummary } from '../allocation/poolSummaries';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import type { RouterOptions } from './routeContext';

export interface PoolLiveData {
  utilization?: PoolUtilization;
  drift?: DriftFinding[];
}

/**
 * The live data of each of `pools`, looked up one pool at a time (the GPU
 * page writes its pools in pieces, over several turns of the event loop).
 * Everything is read now, the figures of every cluster among them and each
 * pool's drift, so one page shows one moment however long it takes to write
 * (a drift reading may land between two of its pieces).
 */
export function poolLiveData(
  options: Pick<RouterOptions, 'live' | 'drift' | 'queries'>,
  snapshot: IndexSnapshot,
  pools: readonly IndexedPoolSummary[],
): (pool: IndexedPoolSummary) => PoolLiveData {
  const { live, drift, queries } = options;
  const byCluster = new Map<string, Map<string, PoolUtilization> | undefined>();
  if (live) {
    const context = queries.context(snapshot);
    for (const { cluster } of pools) {
      if (byCluster.has(cluster)) continue;
      const repoState = snapshot.clusters.get(cluster)?.repoState;
      const prices = new Map(
        (repoState?.pools ?? []).map(p => {
          const cost = context.poolCost(cluster, p.name);
          return [
            p.name,
            cost && {
              nodeCents: cost.nodeCents,
              gpusPerNode: cost.gpusPerNode,
            },
          ] as const;
        }),
      );
      byCluster.set(
        cluster,
        live.poolUtilizationOf(cluster, repoState?.workloads ?? [], prices),
      );
    }
  }
  // Undefined for a pool whose cluster was not read; [] for one without findings.
  const driftByPool = new Map<IndexedPoolSummary, DriftFinding[]>();
  if (drift) {
    for (const pool of pools) {
      const findings = drift.poolDriftOf(pool.cluster, pool.name, snapshot);
      if (findings) driftByPool.set(pool, findings);
    }
  }
  return pool => {
    const data: PoolLiveData = {};
    const utilization = byCluster.get(pool.cluster)?.get(pool.name);
    if (utilization) data.utilization = utilization;
    const findings = driftByPool.get(pool);
    if (findings) data.drift = findings;
    return data;
  };
}
