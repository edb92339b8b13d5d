/** Capacity, allocation and cost per pool, as `GET /pools` shows it. */
import {
  compareStrings,
  centsToUsd,
  poolCapacityUnits,
  poolCostSummary,
  poolUsage,
  unitsPerGpuOf,
  type GpuCatalog,
  type PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import type { ClusterIndex, IndexSnapshot } from '../repoIndex/indexSnapshot';
import type { AllocationContext } from './computeAllocation';
import { migPicture } from './migPicture';

/**
 *  A pool summary whose consumers still carry the workload's kubernetes id (for the access filter).
 *
 * @public
 */
export interface IndexedPoolSummary extends Omit<
  PoolSummary,
  'consumers' | 'otherConsumers'
> {
  consumers: {
    id: string;
    namespace: string;
    kubernetesId?: string;
    /** `spec.owner` of its request record, when the repository holds one. */
    owner?: string;
    units: number;
    usdPerMonth: number;
  }[];
}

/**
 * The pools of one cluster with their consumers: the requests of its ledger
 * (the capacity its nodes are sized for), each with its attributed cost, so
 * that the consumers and the idle cost add up to the pool's nodes, to the
 * cent. They read the cluster's index and the snapshot's stored requests
 * (the consumers' owners and ledger names), nothing of another cluster.
 *
 * Written as steps, one pool each (gpu-node `runSteps`): a cluster of 2k
 * pools is 40–110 ms of work on the scale bench, summarised in turns of the
 * event loop when the GPU page is prepared ahead of its first viewer.
 */
export function* clusterPoolSummarySteps(
  clusterName: string,
  { repoState }: ClusterIndex,
  snapshot: Pick<IndexSnapshot, 'requests'>,
  catalog: GpuCatalog,
  context: AllocationContext,
): Generator<void, IndexedPoolSummary[]> {
  const out: IndexedPoolSummary[] = [];
  const byPool = new Map<string, typeof repoState.workloads>();
  for (const w of repoState.workloads) {
    if (!w.pool) continue;
    // Pushed, not copied: a pool may hold tens of thousands of workloads.
    const onPool = byPool.get(w.pool);
    if (onPool) onPool.push(w);
    else byPool.set(w.pool, [w]);
  }
  for (const pool of repoState.pools) {
    yield;
    const cost = context.poolCost(clusterName, pool.name)!;
    const workloads = new Map(
      (byPool.get(pool.name) ?? []).map(w => [
        context.requestOf({ ...w, cluster: clusterName }),
        w,
      ]),
    );
    const consumers = cost.shares.map(share => {
      const workload = workloads.get(share.request);
      const owner = snapshot.requests.get(share.request)?.request.spec.owner;
      return {
        id: workload?.id ?? share.request,
        namespace: workload?.namespace ?? share.request.split('/')[0],
        ...(workload?.kubernetesId
          ? { kubernetesId: workload.kubernetesId }
          : {}),
        ...(owner ? { owner } : {}),
        units: share.units,
        usdPerMonth: centsToUsd(share.cents),
      };
    });
    const summary: IndexedPoolSummary = {
      name: pool.name,
      cluster: clusterName,
      sharingMode: pool.sharingMode,
      resourceName: pool.resourceName,
      instanceTypes: [...pool.instanceTypes],
      unitsPerGpu: unitsPerGpuOf(pool, repoState),
      allocated: cost.allocatedUnits,
      cost: poolCostSummary(pool.name, cost),
      usage: poolUsage({
        resourceName: pool.resourceName,
        allocated: cost.allocatedUnits,
        capacity: poolCapacityUnits(pool, repoState),
        cost,
      }),
      consumers,
    };
    if (pool.gpuModel) summary.gpuModel = pool.gpuModel;
    const capacity = poolCapacityUnits(pool, repoState);
    if (capacity !== undefined) summary.capacity = capacity;
    const picture = migPicture(pool, repoState, catalog);
    if (picture) summary.migLayout = picture;
    out.push(summary);
  }
  return out;
}

/** Every cluster's pools in one list, as `GET /pools` lists them: by name, then cluster. */
export function sortedPoolSummaries(
  byCluster: Iterable<IndexedPoolSummary[]>,
): IndexedPoolSummary[] {
  return [...byCluster]
    .flat()
    .sort(
      (a, b) =>
        compareStrings(a.name, b.name) || compareStrings(a.cluster, b.cluster),
    );
}
