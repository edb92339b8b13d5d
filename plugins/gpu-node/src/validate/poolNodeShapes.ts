/**
 * The built pools as the scheduling model sees them (gpu-common
 * `scheduling/`): each pool object's node shape, with what its device plugin
 * advertises per node as `builtPools` read it from the built ConfigMaps.
 */
import {
  advertisedPerNode,
  nodeShapeOf,
  type PoolNodeShape,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltPool } from './builtPools';

/**
 * One shape per pool name (a pool built by two roots is one pool). A pool
 * whose config could not be read advertises nothing known, so its
 * resources are not judged; a node holds the most GPUs of its machines.
 */
export function poolNodeShapes(pools: readonly BuiltPool[]): PoolNodeShape[] {
  const byName = new Map<string, PoolNodeShape>();
  for (const pool of pools) {
    if (byName.has(pool.name)) continue;
    const gpusPerNode =
      pool.gpuCounts.length > 0 ? Math.max(...pool.gpuCounts) : undefined;
    byName.set(
      pool.name,
      nodeShapeOf(pool.object, {
        ...(pool.advertised
          ? { resources: advertisedPerNode(pool.advertised, gpusPerNode) }
          : {}),
      }),
    );
  }
  return [...byName.values()];
}
