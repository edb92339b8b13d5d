/**
 * What a release saves, in words that also say why: a request on a shared
 * pool whose nodes stay (others hold them) frees its units but no money —
 * its attributed share becomes the pool's unallocated cost. "Saves
 * $0.00/month" beside a card that billed the component $191.99 read as a
 * mistake; the reason makes both figures true.
 */
import { formatUsd } from '../format/money';
import { countNodes } from '../planner/choosePool';
import type { ReleasedPool } from './types';

function poolClause(pool: ReleasedPool): string {
  const freed = `${pool.releasedUnits} ${pool.resourceName}`;
  if (pool.removed) {
    return `pool ${pool.name} goes with its ${countNodes(pool.nodesBefore)} (${formatUsd(pool.usdPerMonthBefore)}/month)`;
  }
  const saved = pool.usdPerMonthBefore - pool.usdPerMonthAfter;
  if (pool.nodesAfter < pool.nodesBefore) {
    return `pool ${pool.name} frees ${freed} and shrinks from ${countNodes(pool.nodesBefore)} to ${pool.nodesAfter} (${formatUsd(saved)}/month)`;
  }
  const stay =
    pool.ledger.length === 1
      ? 'the request that stays'
      : `the ${pool.ledger.length} requests that stay`;
  const holders = pool.ledger.length > 0 ? ` for ${stay}` : '';
  return (
    `pool ${pool.name} frees ${freed} but keeps its ${countNodes(pool.nodesBefore)}${holders}, ` +
    `so no money is saved there: the ${formatUsd(pool.attributedUsdPerMonth)}/month this request was billed ` +
    `becomes the pool's unallocated cost until another request takes the freed capacity`
  );
}

/**
 * What a release saves and why, e.g. "saves $383.98/month: pool gpu-t4-ts4
 * goes with its 1 node ($383.98/month)", or "saves $0.00/month: pool
 * gpu-t4-ts4 frees 2 nvidia.com/gpu.shared but keeps its 1 node for the
 * request that stays, so no money is saved there: …".
 *
 * @public
 */
export function releaseSavingsText(plan: {
  savedUsdPerMonth: number;
  pools: readonly ReleasedPool[];
}): string {
  const saves = `saves ${formatUsd(plan.savedUsdPerMonth)}/month`;
  if (plan.pools.length === 0) return `${saves}: it held no pool`;
  return `${saves}: ${plan.pools.map(poolClause).join('; ')}`;
}
