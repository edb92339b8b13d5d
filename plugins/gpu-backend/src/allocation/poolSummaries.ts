/** Capacity vs. allocation per pool, as `GET /pools` shows it. */
import type { GpuCatalog, PoolSummary } from '@gpu-gitops/plugin-gpu-common';
import type { IndexSnapshot } from '../repoIndex/RepoIndex';
import { migPicture, poolCapacity, unitsPerGpu } from './poolUnits';
import { compareText } from '../compareText';

/** A pool summary whose consumers still carry the workload's kubernetes id (for the access filter). */
export interface IndexedPoolSummary extends Omit<PoolSummary, 'consumers'> {
  consumers: {
    id: string;
    namespace: string;
    kubernetesId?: string;
    units: number;
  }[];
}

export function summarisePools(
  snapshot: IndexSnapshot,
  catalog: GpuCatalog,
): IndexedPoolSummary[] {
  const out: IndexedPoolSummary[] = [];
  for (const [clusterName, { repoState }] of snapshot.clusters) {
    for (const pool of repoState.pools) {
      const consumers = repoState.workloads
        .filter(w => w.pool === pool.name)
        .map(w => ({
          id: w.id,
          namespace: w.namespace,
          ...(w.kubernetesId ? { kubernetesId: w.kubernetesId } : {}),
          units: w.replicas * w.perReplica,
        }));
      const summary: IndexedPoolSummary = {
        name: pool.name,
        cluster: clusterName,
        sharingMode: pool.sharingMode,
        resourceName: pool.resourceName,
        instanceTypes: [...pool.instanceTypes],
        unitsPerGpu: unitsPerGpu(pool, repoState),
        allocated: consumers.reduce((sum, c) => sum + c.units, 0),
        consumers,
      };
      if (pool.gpuModel) summary.gpuModel = pool.gpuModel;
      const capacity = poolCapacity(pool, repoState);
      if (capacity !== undefined) summary.capacity = capacity;
      const picture = migPicture(pool, repoState, catalog);
      if (picture) summary.migLayout = picture;
      out.push(summary);
    }
  }
  return out.sort(
    (a, b) => compareText(a.name, b.name) || compareText(a.cluster, b.cluster),
  );
}
