/**
 * Where a component's GPU workloads run, as its tab lists them: the places
 * its allocations (`GET /allocation`, the card's rows) land on, not the
 * pools whose ledger names a request of it. A workload may run on a pool
 * of the product's that no request of it holds (placed there by its
 * selector), or on the team's own GPU nodes (`teamNodes`: a hand-written
 * NodePool, NFD-labelled servers), where nothing is counted or priced; the
 * tab shows each, with the card's figures, and nothing for a component
 * without GPUs.
 */
import type { GpuAllocation, PoolSummary } from '@gpu-gitops/plugin-gpu-common';

/** A product pool the component's workloads run on, with those workloads' allocations. */
export interface ComponentPool {
  kind: 'pool';
  key: string;
  pool: PoolSummary;
  allocations: GpuAllocation[];
}

/** The team's own GPU nodes the component's workloads land on. */
export interface ComponentTeamNodes {
  kind: 'team-nodes';
  key: string;
  cluster: string;
  allocations: GpuAllocation[];
}

/** A pool an allocation names that the pools' answer did not list (the repository moved between the two reads). */
export interface ComponentUnlistedPool {
  kind: 'unlisted';
  key: string;
  cluster: string;
  pool: string;
  allocations: GpuAllocation[];
}

export type ComponentPlace =
  ComponentPool | ComponentTeamNodes | ComponentUnlistedPool;

/** The place one allocation runs on, keyed by its cluster and name. */
function placeOf(
  allocation: GpuAllocation,
  pools: readonly PoolSummary[],
): ComponentPlace | undefined {
  const { cluster, teamNodes } = allocation;
  if (teamNodes && teamNodes.length > 0) {
    const key = `${cluster}/${teamNodes.join(',')}`;
    return { kind: 'team-nodes', key, cluster, allocations: [] };
  }
  if (!allocation.pool) return undefined;
  const key = `${cluster}/${allocation.pool}`;
  const pool = pools.find(
    p => p.cluster === cluster && p.name === allocation.pool,
  );
  return pool
    ? { kind: 'pool', key, pool, allocations: [] }
    : {
        kind: 'unlisted',
        key,
        cluster,
        pool: allocation.pool,
        allocations: [],
      };
}

/**
 * The places the allocations run on, each once with its allocations: the
 * product's pools in the pools' answer order, then the team's nodes and the
 * unlisted pools in the allocations' order.
 */
export function componentPlaces(
  allocations: readonly GpuAllocation[],
  pools: readonly PoolSummary[],
): ComponentPlace[] {
  const byKey = new Map<string, ComponentPlace>();
  for (const allocation of allocations) {
    const place = placeOf(allocation, pools);
    if (!place) continue;
    const known = byKey.get(place.key) ?? place;
    known.allocations.push(allocation);
    byKey.set(place.key, known);
  }
  const places = [...byKey.values()];
  const order = (p: ComponentPlace) =>
    p.kind === 'pool' ? pools.indexOf(p.pool) : pools.length;
  return places
    .map((place, index) => ({ place, index }))
    .sort((a, b) => order(a.place) - order(b.place) || a.index - b.index)
    .map(({ place }) => place);
}
