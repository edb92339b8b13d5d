/**
 * How many nodes (and physical GPUs) a pool needs to hold a set of
 * replicas. One rule for everyone who sizes or checks a pool: the planner
 * (NodePool limits), `gpu-gitops validate` (limits ≥ need) and the reports.
 *
 * A replica is never split across nodes (the scheduler places a pod on one
 * node), so the need is a bin-packing question: first-fit decreasing. It is
 * exact when every replica takes one unit (time-slicing, MPS and MIG
 * slices, single-GPU exclusive replicas) and within the usual FFD bound
 * otherwise (exclusive replicas of several GPUs each).
 */

/**
 *  Replicas that each take the same number of units of the pool's resource.
 *
 * @public
 */
export interface ReplicaGroup {
  replicas: number;
  /** Units of the pool's resource one replica asks for (e.g. 1 slice, 2 GPUs). */
  unitsPerReplica: number;
}

/**
 *  What one node of the pool's reference machine offers.
 *
 * @public
 */
export interface NodeShape {
  /** Units of the pool's resource one node offers (slices × GPUs, MIG instances, GPUs). */
  unitsPerNode: number;
  /** Physical GPUs of one node (what Karpenter's `nvidia.com/gpu` limit counts). */
  gpusPerNode: number;
}

/** Thrown when a replica is larger than a whole node: no count of nodes can hold it. */
export class ReplicaTooLargeError extends Error {
  constructor(
    readonly unitsPerReplica: number,
    readonly unitsPerNode: number,
  ) {
    super(
      `a replica of ${unitsPerReplica} units does not fit a node of ${unitsPerNode} units`,
    );
    this.name = 'ReplicaTooLargeError';
  }
}

/**
 *  Nodes needed to place every replica of every group.
 *
 * @public
 */
export function nodesNeeded(
  groups: readonly ReplicaGroup[],
  unitsPerNode: number,
): number {
  const sizes = groups
    .filter(g => g.replicas > 0 && g.unitsPerReplica > 0)
    .sort((a, b) => b.unitsPerReplica - a.unitsPerReplica);
  if (sizes.length === 0) return 0;
  if (sizes[0].unitsPerReplica > unitsPerNode) {
    throw new ReplicaTooLargeError(sizes[0].unitsPerReplica, unitsPerNode);
  }
  // Free units of each open node; first fit, largest replicas first.
  const free: number[] = [];
  for (const { replicas, unitsPerReplica } of sizes) {
    let left = replicas;
    for (let node = 0; node < free.length && left > 0; node++) {
      const fits = Math.min(left, Math.floor(free[node] / unitsPerReplica));
      free[node] -= fits * unitsPerReplica;
      left -= fits;
    }
    if (left === 0) continue;
    // Whole new nodes for the rest, computed rather than looped (1000 replicas).
    const perNode = Math.floor(unitsPerNode / unitsPerReplica);
    const full = Math.floor(left / perNode);
    for (let i = 0; i < full; i++) {
      free.push(unitsPerNode - perNode * unitsPerReplica);
    }
    const rest = left - full * perNode;
    if (rest > 0) free.push(unitsPerNode - rest * unitsPerReplica);
  }
  return free.length;
}

/**
 *  Physical GPUs the pool needs: whole nodes of its reference shape.
 *
 * @public
 */
export function gpusNeeded(
  groups: readonly ReplicaGroup[],
  shape: NodeShape,
): number {
  return nodesNeeded(groups, shape.unitsPerNode) * shape.gpusPerNode;
}

/**
 * The node shape a pool is sized with: its most granular machine (fewest
 * GPUs) that still holds the largest replica. A limit counted in whole nodes
 * of that shape is the smallest one that fits, and Karpenter can always meet
 * it (it may launch those machines; larger ones only when they fit the
 * limit). `gpuCounts` are the GPUs per node of the pool's instance types
 * (an empty list means one GPU per node). Undefined when no machine of the
 * pool holds the replica.
 *
 * @public
 */
export function referenceNodeShape(
  gpuCounts: readonly number[],
  unitsPerGpu: number,
  largestReplicaUnits: number,
): NodeShape | undefined {
  const counts = gpuCounts.length > 0 ? gpuCounts : [1];
  const fitting = counts
    .filter(n => n > 0 && n * unitsPerGpu >= largestReplicaUnits)
    .sort((a, b) => a - b);
  if (fitting.length === 0) return undefined;
  return { gpusPerNode: fitting[0], unitsPerNode: fitting[0] * unitsPerGpu };
}

/** Total units the groups ask for. */
export function unitsOf(groups: readonly ReplicaGroup[]): number {
  return groups.reduce((sum, g) => sum + g.replicas * g.unitsPerReplica, 0);
}
