/**
 * The cluster's pools as a release leaves them, for the queues: each pool
 * the request held keeps the ledger and limits the release plans, and a
 * removed pool goes (with it, its flavor).
 */
import type { RepoState } from '../planner/types';
import type { ReleasePlan } from '../release/types';

/** @public */
export function stateAfterRelease(
  state: RepoState,
  plan: ReleasePlan,
): RepoState {
  const released = new Map(plan.pools.map(p => [p.name, p]));
  const pools = state.pools.flatMap(pool => {
    const after = released.get(pool.name);
    if (!after) return [pool];
    if (after.removed) return [];
    return [{ ...pool, ledger: after.ledger, limits: after.limits }];
  });
  return { ...state, pools };
}
