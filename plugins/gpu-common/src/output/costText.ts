import { formatUsd } from '../format/money';
import { countNodes as nodes } from '../planner/choosePool';
import type { PlanCost } from '../planner/types';

/**
 *  A plan's three cost figures in words, the same in the CLI, the PR body and the preview.
 *
 * @public
 */
export interface CostText {
  /** This request's share of its pool's nodes. */
  attributed: string;
  /** What the change adds to the bill. */
  marginal: string;
  /** The pool's nodes, and how their price splits into shares and idle. */
  pool: string;
}

const perMonth = (usd: number) => `${formatUsd(usd)}/month`;

/**
 * The cost model (capacity/poolCost.ts) as sentences:
 * - attributed: `$96.00/month: its share of pool gpu-t4-ts4 (1 of 4 nvidia.com/gpu.shared)`
 * - marginal: `$0.00/month: it fits capacity already paid for (1 node)`
 * - pool: `1 × g4dn.xlarge at $383.98/month = $383.98/month: $287.99 attributed to 2 requests + $95.99 unallocated (1 of 4 nvidia.com/gpu.shared free)`
 *
 * @public
 */
export function describeCost(
  cost: PlanCost,
  request: string,
  resourceName: string,
): CostText {
  const pool = cost.pool;
  const held = pool.shares.find(s => s.request === request)?.units ?? 0;
  const attributedToAll = pool.shares.reduce(
    (sum, s) => sum + Math.round(s.usdPerMonth * 100),
    0,
  );
  const before = pool.nodesBefore ?? pool.nodes;
  let marginal: string;
  if (cost.marginalUsdPerMonth === 0 && before === pool.nodes) {
    marginal = `${perMonth(0)}: it fits capacity already paid for (${nodes(pool.nodes)})`;
  } else if (before === pool.nodes) {
    marginal = `${perMonth(cost.marginalUsdPerMonth)}: pool ${pool.name} keeps ${nodes(pool.nodes)}; the pools it leaves change`;
  } else {
    marginal = `${perMonth(cost.marginalUsdPerMonth)}: pool ${pool.name} goes from ${nodes(before)} to ${nodes(pool.nodes)}`;
  }
  const machine = pool.instanceType ?? 'nodes of unknown price';
  return {
    attributed: `${perMonth(cost.usdPerMonth)}: its share of pool ${pool.name} (${held} of ${pool.capacityUnits} ${resourceName})`,
    marginal,
    pool: `${pool.nodes} × ${machine} at ${perMonth(pool.nodeUsdPerMonth)} = ${perMonth(pool.usdPerMonth)}: ${formatUsd(attributedToAll / 100)} attributed to ${pool.shares.length === 1 ? '1 request' : `${pool.shares.length} requests`} + ${formatUsd(pool.idleUsdPerMonth)} unallocated (${pool.idleUnits} of ${pool.capacityUnits} ${resourceName} free)`,
  };
}
