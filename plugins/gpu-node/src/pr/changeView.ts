/**
 * A resize or a move, as the PR body shows it: what the request held before
 * (gpu-common `plan.previous`, priced by the same cost model) beside what the
 * plan gives it, and what the change frees.
 */
import { formatUsd, type Plan } from '@gpu-gitops/plugin-gpu-common';

/** @public */
export interface PullRequestChangeView {
  heldBefore: string;
  heldAfter: string;
  poolsBefore: string;
  nodesBefore: number;
  nodesAfter: number;
  attributedBefore: string;
  attributedAfter: string;
  /** The bill's change per month, signed (`-$230.00` when it frees nodes). */
  marginal: string;
  /** What the change gives back, in words; undefined when it frees nothing. */
  frees?: string;
}

function held(units: number, resourceName: string): string {
  return `${units} × \`${resourceName}\``;
}

export function changeView(plan: Plan): PullRequestChangeView | undefined {
  const previous = plan.previous;
  if (!previous) return undefined;
  const unitsAfter = plan.request.spec.gpu.replicas * plan.resourcePerReplica;
  const samePool = previous.pools.find(p => p.name === plan.pool.name);
  const freed: string[] = [];
  if (samePool && samePool.units > unitsAfter) {
    freed.push(held(samePool.units - unitsAfter, plan.resourceName));
  }
  for (const left of previous.pools.filter(p => p.name !== plan.pool.name)) {
    freed.push(
      `${held(left.units, left.resourceName)} on pool \`${left.name}\``,
    );
  }
  const nodesBefore = plan.cost.pool.nodesBefore ?? plan.nodes.expected;
  if (nodesBefore > plan.nodes.expected) {
    freed.push(
      `${nodesBefore - plan.nodes.expected} node(s) of \`${plan.pool.name}\``,
    );
  }
  if (plan.cost.marginalUsdPerMonth < 0) {
    freed.push(`${formatUsd(-plan.cost.marginalUsdPerMonth)} per month`);
  }
  return {
    heldBefore: previous.pools
      .map(p => `${held(p.units, p.resourceName)} on \`${p.name}\``)
      .join(', '),
    heldAfter: `${held(unitsAfter, plan.resourceName)} on \`${plan.pool.name}\``,
    poolsBefore: previous.pools.map(p => `\`${p.name}\``).join(', '),
    nodesBefore,
    nodesAfter: plan.nodes.expected,
    attributedBefore: formatUsd(previous.usdPerMonth),
    attributedAfter: formatUsd(plan.cost.usdPerMonth),
    marginal: formatUsd(plan.cost.marginalUsdPerMonth),
    ...(freed.length > 0 ? { frees: freed.join(', ') } : {}),
  };
}
