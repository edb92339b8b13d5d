import type { PoolSummary } from '@gpu-gitops/plugin-gpu-common';

/** How full a pool is, as its card, its bar and the GPU page say it. */
export interface PoolUsage {
  /** Units of the pool's resource the requests of its ledger hold. */
  allocated: number;
  /** Units its nodes offer: the nodes its ledger needs, as the cost counts them. */
  onNodes: number;
  /** Units on those nodes nobody holds. */
  free: number;
  /** Units its NodePool limit allows it to grow to; absent when unlimited. */
  limit?: number;
  /** `allocated / onNodes` for a bar (0 with no nodes, at most 1). */
  fraction: number;
  /** More is held than the limit allows: the excess pods stay pending. */
  overLimit: boolean;
  /** e.g. `4 of 4 nvidia.com/gpu.shared held on 1 node, 0 free; the limit allows 16`. */
  text: string;
}

const nodes = (n: number) => (n === 1 ? '1 node' : `${n} nodes`);

/**
 * One figure per unit: the bar, the count and the free units all read the
 * pool's nodes (`cost`: the units they offer, hold and leave free, the
 * figures its price is split by). The NodePool limit is another figure, how
 * far the pool may grow, and is named as such: "4 of 8 allocated" against
 * the limit beside "0 of 4 free" of the nodes told two stories at once.
 * The same fields and words as gpu-common's `poolUsage` on h-secure28's
 * branch (`PoolSummary.usage`), which replaces this once both are merged.
 */
export function poolUsage(pool: PoolSummary): PoolUsage {
  const { allocated, capacity: limit, cost, resourceName } = pool;
  const onNodes = cost.capacityUnits;
  const overLimit = limit !== undefined && allocated > limit;
  const held = `${allocated} of ${onNodes} ${resourceName} held on ${nodes(
    cost.nodes,
  )}, ${cost.idleUnits} free`;
  const ceiling =
    limit === undefined
      ? 'no limit'
      : `the limit allows ${limit}${overLimit ? ' — over it: the excess pods stay pending' : ''}`;
  return {
    allocated,
    onNodes,
    free: cost.idleUnits,
    ...(limit !== undefined ? { limit } : {}),
    fraction: onNodes > 0 ? Math.min(1, allocated / onNodes) : 0,
    overLimit,
    text: `${held}; ${ceiling}`,
  };
}
