/**
 * What `GET /pools` adds to each pool from live data: its GPUs' figures
 * (one computation per cluster with live data, priced by the same cost
 * model as the pool's `cost`) and where its cluster differs from Git.
 */
import type { PoolUtilization } from '@gpu-gitops/plugin-gpu-common';
import type { IndexedPoolSummary } from '../allocation/poolSummaries';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import type { RouterOptions } from './routeContext';

export function withPoolLiveData(
  options: Pick<RouterOptions, 'live' | 'drift' | 'queries'>,
  snapshot: IndexSnapshot,
  pools: IndexedPoolSummary[],
): IndexedPoolSummary[] {
  const { live, drift, queries } = options;
  if (!live && !drift) return pools;
  const context = queries.context(snapshot);
  const byCluster = new Map<string, Map<string, PoolUtilization> | undefined>();
  const figuresOf = (cluster: string) => {
    if (!live) return undefined;
    if (!byCluster.has(cluster)) {
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
    return byCluster.get(cluster);
  };
  return pools.map(pool => {
    const utilization = figuresOf(pool.cluster)?.get(pool.name);
    const findings = drift?.poolDriftOf(pool.cluster, pool.name, snapshot);
    return {
      ...pool,
      ...(utilization ? { utilization } : {}),
      ...(findings ? { drift: findings } : {}),
    };
  });
}
