import type { LedgerEntry } from '../capacity/ledger';
import { poolCost, type PoolCost } from '../capacity/poolCost';
import type { GpuCatalog } from '../catalog/types';
import { centsToUsd } from '../format/money';
import type { ClusterProfile } from '../cluster/types';
import type { CatalogIndex } from './catalogIndex';
import { ledgerOf } from './poolLimits';
import { machinesOfPool } from './poolMachines';
import { sizingOfPool } from './poolSizing';
import { poolFloorNodes } from './nodeFloor';
import { fixedPoolNodes } from './staticInventory';
import type { PoolCostView, PoolState, RepoState } from './types';

/**
 * A pool of the repository priced by the cost model (capacity/poolCost.ts):
 * its ledger (or `ledger`, e.g. the ledger a change leaves it with), its
 * sharing's units per GPU and the catalog machines it may launch
 * (poolMachines.ts: of `cluster`'s provider); on `cluster`, whose profile may
 * fix its nodes (a static pool chosen by GPU). The one price of a repository
 * pool: a plan prices a reused pool and a release its pool with it.
 *
 * @public
 */
export function costOfPool(
  pool: PoolState,
  repoState: RepoState | undefined,
  catalog: GpuCatalog | CatalogIndex,
  ledger?: readonly LedgerEntry[],
  cluster?: ClusterProfile,
): PoolCost {
  const sizing = sizingOfPool(pool, catalog, repoState, cluster);
  const machines = machinesOfPool(pool, catalog, cluster);
  return poolCost(ledger ?? ledgerOf(pool, repoState).ledger, {
    unitsPerGpu: sizing.unitsPerGpu,
    staticPool: sizing.staticPool,
    machines,
    fixedNodes: fixedPoolNodes(cluster, machines),
    floorNodes: poolFloorNodes(pool, cluster, machines),
  });
}

/** The JSON view of a pool's cost (dollars with two decimals, exact cents). */
export function poolCostView(
  name: string,
  cost: PoolCost,
  nodesBefore?: number,
): PoolCostView {
  return {
    name,
    nodes: cost.nodes,
    ...(nodesBefore !== undefined ? { nodesBefore } : {}),
    ...(cost.instanceType ? { instanceType: cost.instanceType } : {}),
    nodeUsdPerMonth: centsToUsd(cost.nodeCents),
    usdPerMonth: centsToUsd(cost.totalCents),
    idleUsdPerMonth: centsToUsd(cost.idleCents),
    capacityUnits: cost.capacityUnits,
    allocatedUnits: cost.allocatedUnits,
    idleUnits: cost.idleUnits,
    shares: cost.shares.map(s => ({
      request: s.request,
      units: s.units,
      usdPerMonth: centsToUsd(s.cents),
    })),
  };
}

/**
 *  The pool-level part of the view: no shares (other entities may be private).
 *
 * @public
 */
export function poolCostSummary(
  name: string,
  cost: PoolCost,
): Omit<PoolCostView, 'shares' | 'nodesBefore'> {
  const {
    shares: _shares,
    nodesBefore: _before,
    ...summary
  } = poolCostView(name, cost);
  return summary;
}
