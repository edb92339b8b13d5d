/**
 * The built pools as the scheduling model sees them (gpu-common
 * `scheduling/`): each pool object's node shape, with what its device plugin
 * advertises per node as `builtPools` read it from the built ConfigMaps, or
 * as the one plugin serving it gives it (`devicePluginService`: a plugin of
 * its own config), no more than Karpenter believes under the NodeOverlays
 * that win (`builtOverlays.ts`), and what that plugin leaves wrong.
 */
import {
  advertisedPerNode,
  devicePluginService,
  nodeShapeOf,
  type ClusterGpuStack,
  type MigStrategy,
  type PoolNodeShape,
  runSteps,
} from '@gpu-gitops/plugin-gpu-common';
import { runStepsInTurns } from '../repo/eventLoopTurns';
import { overlaidResources } from './builtOverlays';
import type { BuiltPool } from './builtPools';

/** What runs on the pools' nodes, when the caller knows it. */
export interface PoolsStack {
  stack?: ClusterGpuStack;
  migStrategy?: MigStrategy;
}

/** One pool's nodes, and why its GPU pods cannot run as planned there. */
export interface ServedPool {
  pool: BuiltPool;
  shape: PoolNodeShape;
  problems: string[];
}

/**
 * One per pool name (a pool built by two roots is one pool). A pool whose
 * config could not be read advertises nothing known, so its resources are
 * not judged; a node holds the most GPUs of its machines.
 */
export function servedPools(
  pools: readonly BuiltPool[],
  stack: PoolsStack = {},
): ServedPool[] {
  return runSteps(servedPoolSteps(pools, stack));
}

/**
 * `servedPools` with a turn of the event loop between pools when one is
 * due: the planned pool's landing shapes a scale cluster's 2k pools.
 */
export function servedPoolsInTurns(
  pools: readonly BuiltPool[],
  stack: PoolsStack = {},
): Promise<ServedPool[]> {
  return runStepsInTurns(servedPoolSteps(pools, stack));
}

/** The work of `servedPools`, stopping after each pool. */
function* servedPoolSteps(
  pools: readonly BuiltPool[],
  { stack, migStrategy }: PoolsStack,
): Generator<void, ServedPool[]> {
  const byName = new Map<string, ServedPool>();
  for (const pool of pools) {
    if (byName.has(pool.name)) continue;
    byName.set(pool.name, servedPool(pool, stack, migStrategy));
    yield;
  }
  return [...byName.values()];
}

/** One pool's node shape, as its device plugin serves it under the overlays that win. */
function servedPool(
  pool: BuiltPool,
  stack: ClusterGpuStack | undefined,
  migStrategy: MigStrategy | undefined,
): ServedPool {
  const gpusPerNode =
    pool.gpuCounts.length > 0 ? Math.max(...pool.gpuCounts) : undefined;
  // The root's other objects: the team's own NFD rules label its GPU nodes too.
  const shape = {
    ...nodeShapeOf(pool.object, {
      objects: pool.root.objects,
      ...(pool.advertised
        ? { resources: advertisedPerNode(pool.advertised, gpusPerNode) }
        : {}),
    }),
    ...(pool.gpuProducts ? { gpuProducts: pool.gpuProducts } : {}),
  };
  const service = devicePluginService(shape, stack, migStrategy, gpusPerNode);
  const resources = service.resources ?? shape.resources;
  return {
    pool,
    shape: resources
      ? { ...shape, resources: overlaidResources(resources, pool) }
      : shape,
    problems: service.problems,
  };
}

/** The pools' node shapes (`servedPools`). */
export function poolNodeShapes(
  pools: readonly BuiltPool[],
  stack: PoolsStack = {},
): PoolNodeShape[] {
  return servedPools(pools, stack).map(p => p.shape);
}
