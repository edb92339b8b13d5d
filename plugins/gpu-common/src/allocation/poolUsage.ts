/**
 * How full a pool is, in one set of figures for every place that shows it
 * (the tab's bar and sentence, the GPU page). A pool has two sizes: the
 * nodes its ledger needs, which run and are paid for (the cost model's
 * `capacityUnits`), and its limit, how far it may grow. The bar once measured
 * against the limit ("4 of 8 allocated", 50 %) beside a cost saying "0 of 4
 * free": both true, read as a contradiction. What is held is measured
 * against what runs; the limit is named as the ceiling it is.
 */
import { countNodes } from '../planner/choosePool';
import type { PoolCostView } from '../planner/types';

/**
 * A pool's use, against its nodes and its limit.
 *
 * @public
 */
export interface PoolUsage {
  /** Units of the pool's resource the requests of its ledger hold. */
  allocated: number;
  /** Units its nodes offer: the nodes its ledger needs, as the cost counts them. */
  onNodes: number;
  /** Units on those nodes nobody holds (the cost's `idleUnits`). */
  free: number;
  /** Units its limit allows it to grow to; absent when unlimited. */
  limit?: number;
  /** `allocated / onNodes` for a bar (0 with no nodes, at most 1). */
  fraction: number;
  /** More is held than the limit allows: the excess pods stay pending. */
  overLimit: boolean;
  /** The figures in one sentence, e.g. `4 of 4 nvidia.com/gpu.shared held on 1 node, 0 free; the limit allows 8`. */
  text: string;
}

/** @public */
export function poolUsage(pool: {
  resourceName: string;
  allocated: number;
  capacity?: number;
  cost: Pick<PoolCostView, 'nodes' | 'capacityUnits' | 'idleUnits'>;
}): PoolUsage {
  const { allocated, capacity: limit, cost, resourceName } = pool;
  const onNodes = cost.capacityUnits;
  const overLimit = limit !== undefined && allocated > limit;
  const held = `${allocated} of ${onNodes} ${resourceName} held on ${countNodes(
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
