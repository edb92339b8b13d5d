/**
 * The cluster's pools as a request change leaves them, for the queues: the
 * planned pool with its new ledger and limits, the pools it leaves shrunk
 * (gone when their ledger empties), and a new MIG layout known, so each
 * flavor's units and capacity are the ones the merged change provisions.
 */
import type { Plan, PoolState, RepoState } from '../planner/types';

function plannedPool(plan: Plan): PoolState {
  const { pool, sharing } = plan;
  return {
    name: pool.name,
    path: pool.path ?? '',
    gpuModel: pool.gpuModel,
    sharingMode: sharing.mode,
    slicesPerGpu: sharing.slicesPerGpu,
    migProfile: sharing.migProfile,
    migConfigName: sharing.migConfigName,
    deviceConfigName: sharing.deviceConfigName,
    resourceName: plan.resourceName,
    instanceTypes: pool.instanceTypes,
    capacityTypes: pool.capacityTypes,
    limits: pool.limits,
    taints: [pool.taint, ...(pool.otherTaints ?? [])],
    ledger: pool.ledger,
    limitFloor: pool.limitFloor,
  };
}

/** @public */
export function stateAfterPlan(state: RepoState, plan: Plan): RepoState {
  const left = new Map(plan.leftPools.map(p => [p.name, p]));
  const pools = state.pools.flatMap(pool => {
    if (pool.name === plan.pool.name) return [];
    const leaving = left.get(pool.name);
    if (!leaving) return [pool];
    if (leaving.ledger.length === 0) return [];
    return [{ ...pool, ledger: leaving.ledger, limits: leaving.limits }];
  });
  const migConfigs = plan.sharing.migConfigName
    ? {
        ...state.migConfigs,
        [plan.sharing.migConfigName]:
          state.migConfigs[plan.sharing.migConfigName] ??
          plan.sharing.migConfigEntries,
      }
    : state.migConfigs;
  return { ...state, pools: [...pools, plannedPool(plan)], migConfigs };
}
