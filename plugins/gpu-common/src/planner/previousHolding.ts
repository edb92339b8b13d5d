import type { ClusterProfile } from '../cluster/types';
import { centsToUsd } from '../format/money';
import type { GpuRequest } from '../request/types';
import type { CatalogIndex } from './catalogIndex';
import { costOfPool } from './poolCost';
import { ledgerOf, requestId } from './poolLimits';
import type { PlanPrevious, RepoState } from './types';

/**
 * What the request holds in the repository now, pool by pool, priced as the
 * plan prices the change: undefined for a request the repository does not
 * hold yet. A resize's "before".
 */
export function previousHolding(
  request: GpuRequest,
  index: CatalogIndex,
  repoState: RepoState | undefined,
  cluster: ClusterProfile,
): PlanPrevious | undefined {
  const id = requestId(request);
  const pools: PlanPrevious['pools'] = [];
  let cents = 0;
  for (const pool of repoState?.pools ?? []) {
    const entry = ledgerOf(pool, repoState).ledger.find(e => e.request === id);
    if (!entry) continue;
    const cost = costOfPool(pool, repoState, index, undefined, cluster);
    const share = cost.shares.find(s => s.request === id)?.cents ?? 0;
    cents += share;
    pools.push({
      name: pool.name,
      resourceName: pool.resourceName,
      units: entry.replicas * entry.unitsPerReplica,
      nodes: cost.nodes,
      usdPerMonth: centsToUsd(share),
    });
  }
  if (pools.length === 0) return undefined;
  return { pools, usdPerMonth: centsToUsd(cents) };
}
