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

/** What `choosePool` chooses among. */
export interface PoolCandidates {
  options: PoolOption[];
  rejected: { pool: PoolState; reason: string }[];
  fresh?: PoolOption;
  /** Why no new pool can be created, when `fresh` is undefined. */
  freshProblem?: string;
  /** `Plan` pool suffix of the slicing a new pool would get (e.g. `-ts5`). */
  idealSuffix: string;
}

/**
 * Reuse before create. The pools that can take the request are ranked by
 * what the change adds to the bill (capacity already paid for first), then
 * by the memory a replica gets beyond its ask, then by name. The first that
 * runs the slicing a new pool would get, or adds no more than a new pool
 * would, is reused: a coarser slicing is worth it only when it is not
 * dearer. Otherwise (or when none can take it) a new pool is created.
 */
export function choosePool(
  args: PoolCandidates,
): { chosen: PoolOption; decision: PlanDecision } | undefined {
  const ranked = [...args.options].sort(compareOptions);
  const { fresh } = args;
  const reusable = (o: PoolOption) =>
    !fresh ||
    o.decision.poolSuffix === args.idealSuffix ||
    o.marginalCents <= fresh.marginalCents;
  const chosen = ranked.find(reusable) ?? fresh;
  if (!chosen) return undefined;
  return {
    chosen,
    decision: {
      choice: chosen.existing
        ? `reuse pool ${chosen.poolName}`
        : `new pool ${chosen.poolName}`,
      reason: choiceReason(chosen, ranked, args),
      considered: [
        ...rankedConsidered(ranked, chosen, reusable, fresh),
        ...args.rejected.map(({ pool, reason }) => ({
          option: `pool ${pool.name}`,
          chosen: false,
          reason,
        })),
        ...newPoolConsidered(chosen, args),
      ],
    },
  };
}

/** Each pool that could take the request: what it adds, and why it was not chosen. */
function rankedConsidered(
  ranked: PoolOption[],
  chosen: PoolOption,
  reusable: (option: PoolOption) => boolean,
  fresh: PoolOption | undefined,
): PlanDecision['considered'] {
  return ranked.map(option => {
    const detail = `${describeMarginal(option)}, ${gib(option.decision.memoryMiB)} per replica`;
    let reason: string;
    if (option === chosen) {
      reason = detail;
    } else if (!reusable(option)) {
      reason = `${detail}: more than a new pool (${formatCents(fresh!.marginalCents)}/month)`;
    } else {
      reason = `${detail}: ranks after ${chosen.poolName}`;
    }
    return {
      option: `pool ${option.poolName}`,
      chosen: option === chosen,
      reason,
    };
  });
}

/** The new pool, chosen or not, or why none can be created. */
function newPoolConsidered(
  chosen: PoolOption,
  { fresh, freshProblem }: PoolCandidates,
): PlanDecision['considered'] {
  if (fresh) {
    return [
      {
        option: `new pool ${fresh.poolName}`,
        chosen: fresh === chosen,
        reason:
          fresh === chosen
            ? describeMarginal(fresh)
            : `${describeMarginal(fresh)}: a pool that exists is reused first`,
      },
    ];
  }
  if (freshProblem) {
    return [{ option: 'a new pool', chosen: false, reason: freshProblem }];
  }
  return [];
}

/** Why the chosen pool: paid-for capacity, the slicing needed, no dearer than new; or why a new one. */
function choiceReason(
  chosen: PoolOption,
  ranked: PoolOption[],
  args: PoolCandidates,
): string {
  if (chosen.existing) {
    const paid =
      chosen.marginalCents <= 0 && chosen.after.nodes <= chosen.nodesBefore;
    if (paid) {
      return `it fits capacity already paid for: ${describeMarginal(chosen)}`;
    }
    if (chosen.decision.poolSuffix === args.idealSuffix) {
      return `it runs the slicing the request needs: ${describeMarginal(chosen)}`;
    }
    return `its slices cover the request and it ${describeMarginal(chosen)}, no more than a new pool`;
  }
  if (ranked.length > 0) {
    return `every pool that could take it adds more to the bill than a new pool, which ${describeMarginal(chosen)}`;
  }
  if (args.rejected.length > 0) {
    return `no pool of this GPU can take it (see below); the new pool ${describeMarginal(chosen)}`;
  }
  return `the cluster has no pool of this GPU yet; the new pool ${describeMarginal(chosen)}`;
}
