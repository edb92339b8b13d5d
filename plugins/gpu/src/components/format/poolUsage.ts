import type { PoolSummary } from '@gpu-gitops/plugin-gpu-common';

/** How full a pool is, as its card, its bar and the GPU page say it. */
export interface PoolUsage {
  /** The bar: held units over the units its nodes offer. */
  fraction: number;
  /** e.g. `4 of 4 nvidia.com/gpu.shared allocated on 1 node, 0 free`. */
  text: string;
  /** How far the NodePool may grow: `NodePool limit 16` or `no NodePool limit`. */
  limit: string;
  /** The ledger holds more than the NodePool's limit allows: new pods stay pending. */
  over: boolean;
}

const nodes = (n: number) => (n === 1 ? '1 node' : `${n} nodes`);

/**
 * One figure per unit: the bar, the count and the free units all read the
 * pool's nodes (`cost`: the units they offer, hold and leave free, the
 * figures its price is split by). The NodePool limit is another figure, how
 * far the pool may grow, and is named as such: "4 of 8 allocated" against
 * the limit beside "0 of 4 free" of the nodes told two stories at once.
 */
export function poolUsage(pool: PoolSummary): PoolUsage {
  const { cost, resourceName } = pool;
  const limit =
    pool.capacity === undefined
      ? 'no NodePool limit'
      : `NodePool limit ${pool.capacity}`;
  const over = pool.capacity !== undefined && pool.allocated > pool.capacity;
  if (cost.capacityUnits === 0) {
    return {
      fraction: pool.allocated > 0 ? 1 : 0,
      text: `${pool.allocated} ${resourceName} allocated, no nodes`,
      limit,
      over,
    };
  }
  return {
    fraction: cost.allocatedUnits / cost.capacityUnits,
    text: `${cost.allocatedUnits} of ${cost.capacityUnits} ${resourceName} allocated on ${nodes(cost.nodes)}, ${cost.idleUnits} free`,
    limit,
    over,
  };
}
