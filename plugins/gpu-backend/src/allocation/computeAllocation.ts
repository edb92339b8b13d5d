/**
 * One workload's GPU allocation, read from the pool it runs on as the
 * repository holds it: what a replica gets (gpu-common `replicaOnPool`, the
 * figures the planner gives a request on that pool) and its attributed cost,
 * its share of the pool's nodes by the units the pool's ledger gives it (the
 * one cost model, gpu-common `capacity/poolCost.ts`: the PR body and `POST
 * /plan` show the same figure).
 */
import {
  centsToUsd,
  findModel,
  gpuHoldingTitle,
  poolCostSummary,
  replicaOnPool,
  roundDecimals,
  type GpuAllocation,
  type GpuCatalog,
  type PoolCost,
} from '@gpu-gitops/plugin-gpu-common';
import type {
  IndexedWorkload,
  IndexSnapshot,
} from '../repoIndex/indexSnapshot';

/**
 *  What the allocation needs beyond the workload: computed once per snapshot.
 *
 * @public
 */
export interface AllocationContext {
  /** The cost of a pool of a cluster, or undefined when the index has no such pool. */
  poolCost(cluster: string, pool: string): PoolCost | undefined;
  /** The ledger entry (`<namespace>/<name>` of its request) a workload's capacity is booked under. */
  requestOf(workload: IndexedWorkload): string;
}

export function computeAllocation(
  workload: IndexedWorkload,
  snapshot: IndexSnapshot,
  catalog: GpuCatalog,
  context: AllocationContext,
): GpuAllocation {
  const cluster = snapshot.clusters.get(workload.cluster);
  const pool = cluster?.repoState.pools.find(p => p.name === workload.pool);
  const requestId = context.requestOf(workload);
  const stored = snapshot.requests.get(requestId);
  const model = pool?.gpuModel ? findModel(catalog, pool.gpuModel) : undefined;
  const replica = pool
    ? replicaOnPool(pool, model, cluster?.repoState, workload.perReplica)
    : { memoryMiB: 0, vramGuaranteed: false, gpuShare: 0 };
  const cost =
    pool && workload.pool
      ? context.poolCost(workload.cluster, workload.pool)
      : undefined;
  const share = cost?.shares.find(s => s.request === requestId);
  const allocation: GpuAllocation = {
    id: workload.id,
    namespace: workload.namespace,
    name: workload.name,
    cluster: workload.cluster,
    pool: workload.pool ?? workload.unpooledNodes?.[0] ?? '',
    gpuModel: pool?.gpuModel ?? 'unknown',
    sharingMode: pool?.sharingMode ?? 'exclusive',
    resourceName: workload.resourceName,
    replicas: workload.replicas,
    perReplica: workload.perReplica,
    gpuSharePerReplica: roundDecimals(replica.gpuShare, 6),
    vramMiBPerReplica: replica.memoryMiB,
    vramGuaranteed: replica.vramGuaranteed,
    // As the planner rounds it, so the card and the PR body agree.
    physicalGpus: roundDecimals(workload.replicas * replica.gpuShare, 4),
    usdPerMonth: centsToUsd(share?.cents ?? 0),
    unitsHeld: share?.units ?? 0,
    sources: [workload.path, pool?.path, stored?.path]
      .filter((s): s is string => !!s)
      .sort(),
  };
  if (cost && workload.pool) {
    allocation.poolCost = poolCostSummary(workload.pool, cost);
  }
  if (!workload.pool && workload.unpooledNodes?.length) {
    allocation.teamNodes = [...workload.unpooledNodes];
  }
  if (stored) {
    allocation.owner = stored.request.spec.owner;
    allocation.requestSpec = stored.request.spec;
  }
  if (replica.migProfile) allocation.migProfile = replica.migProfile;
  if (replica.computeShare !== undefined) {
    allocation.computeSharePerReplica = roundDecimals(replica.computeShare, 6);
  }
  allocation.title = gpuHoldingTitle({
    replicas: allocation.replicas,
    unitsPerReplica: allocation.perReplica,
    gpuSharePerReplica: replica.gpuShare,
    sharingMode: allocation.sharingMode,
    migProfile: allocation.migProfile,
    modelName: model?.displayName ?? allocation.gpuModel,
  });
  return allocation;
}
