import { formatCents } from '../format/money';
import { compareStrings } from '../text/compareStrings';
import { gib } from './modeDecision';
import type { PoolOption } from './poolOption';
import type { PlanDecision, PoolState } from './types';

/** `1 node`, `2 nodes`. */
export function countNodes(n: number): string {
  return n === 1 ? '1 node' : `${n} nodes`;
}

/** `adds $383.98/month (1 → 2 nodes)`, `adds $0.00/month (fits its 1 node)`. */
export function describeMarginal(option: PoolOption): string {
  const nodes =
    option.after.nodes === option.nodesBefore
      ? `fits its ${countNodes(option.after.nodes)}`
      : `${option.nodesBefore} → ${countNodes(option.after.nodes)}`;
  return `adds ${formatCents(option.marginalCents)}/month (${nodes})`;
}

function compareOptions(a: PoolOption, b: PoolOption): number {
  return (
    a.marginalCents - b.marginalCents ||
    a.wasteMiB - b.wasteMiB ||
    compareStrings(a.poolName, b.poolName)
  );
}

/**
 * Reuse before create. The pools that can take the request are ranked by
 * what the change adds to the bill (capacity already paid for first), then
 * by the memory a replica gets beyond its ask, then by name. The first that
 * runs the slicing a new pool would get, or adds no more than a new pool
 * would, is reused: a coarser slicing is worth it only when it is not
 * dearer. Otherwise (or when none can take it) a new pool is created.
 */
export function choosePool(args: {
  options: PoolOption[];
  rejected: { pool: PoolState; reason: string }[];
  fresh?: PoolOption;
  /** Why no new pool can be created, when `fresh` is undefined. */
  freshProblem?: string;
  /** `Plan` pool suffix of the slicing a new pool would get (e.g. `-ts5`). */
  idealSuffix: string;
}): { chosen: PoolOption; decision: PlanDecision } | undefined {
  const ranked = [...args.options].sort(compareOptions);
  const { fresh } = args;
  const reusable = (o: PoolOption) =>
    !fresh ||
    o.decision.poolSuffix === args.idealSuffix ||
    o.marginalCents <= fresh.marginalCents;
  const chosen = ranked.find(reusable) ?? fresh;
  if (!chosen) return undefined;

  const considered: PlanDecision['considered'] = [];
  for (const option of ranked) {
    const detail = `${describeMarginal(option)}, ${gib(option.decision.memoryMiB)} per replica`;
    let reason: string;
    if (option === chosen) {
      reason = detail;
    } else if (!reusable(option)) {
      reason = `${detail}: more than a new pool (${formatCents(fresh!.marginalCents)}/month)`;
    } else {
      reason = `${detail}: ranks after ${chosen.poolName}`;
    }
    considered.push({
      option: `pool ${option.poolName}`,
      chosen: option === chosen,
      reason,
    });
  }
  for (const { pool, reason } of args.rejected) {
    considered.push({ option: `pool ${pool.name}`, chosen: false, reason });
  }
  if (fresh) {
    considered.push({
      option: `new pool ${fresh.poolName}`,
      chosen: fresh === chosen,
      reason:
        fresh === chosen
          ? describeMarginal(fresh)
          : `${describeMarginal(fresh)}: a pool that exists is reused first`,
    });
  } else if (args.freshProblem) {
    considered.push({
      option: 'a new pool',
      chosen: false,
      reason: args.freshProblem,
    });
  }

  let reason: string;
  if (chosen.existing) {
    const paid =
      chosen.marginalCents <= 0 && chosen.after.nodes <= chosen.nodesBefore;
    if (paid) {
      reason = `it fits capacity already paid for: ${describeMarginal(chosen)}`;
    } else if (chosen.decision.poolSuffix === args.idealSuffix) {
      reason = `it runs the slicing the request needs: ${describeMarginal(chosen)}`;
    } else {
      reason = `its slices cover the request and it ${describeMarginal(chosen)}, no more than a new pool`;
    }
  } else if (ranked.length > 0) {
    reason = `every pool that could take it adds more to the bill than a new pool, which ${describeMarginal(chosen)}`;
  } else if (args.rejected.length > 0) {
    reason = `no pool of this GPU can take it (see below); the new pool ${describeMarginal(chosen)}`;
  } else {
    reason = `the cluster has no pool of this GPU yet; the new pool ${describeMarginal(chosen)}`;
  }
  return {
    chosen,
    decision: {
      choice: chosen.existing
        ? `reuse pool ${chosen.poolName}`
        : `new pool ${chosen.poolName}`,
      reason,
      considered,
    },
  };
}
