/**
 * `workload-unschedulable`: a GPU workload whose pods can land on no pool
 * the tree builds (gpu-common `scheduling/`: node selector, required node
 * affinity, tolerations, GPU resources), with the reason each pool refuses.
 */
import {
  landingPools,
  landingRefusalsText,
  podSchedulingOf,
  type PodScheduling,
  type PoolNodeShape,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltPool } from './builtPools';
import { podSpecOf, type GpuWorkload } from './builtWorkloads';
import type { Finding } from './findings';
import { poolNodeShapes, type PoolsStack } from './poolNodeShapes';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

/** Rules that already say why a workload's pods stay Pending. */
const SAID_ALREADY = new Set(['unserved-resource', 'untolerated-taint']);

const GPU_PRODUCT = 'nvidia.com/gpu.product';

/**
 * A product selector a pool's running nodes may meet but whose model is not
 * known (no catalog machine, no model label): taken to fit, and said, as the
 * planner says it (gpu-common `existingSelectors.ts`). A Karpenter pool is
 * never in doubt: it launches no node for a label it does not define.
 */
function unknownProductNotes(
  object: string,
  pod: PodScheduling,
  landed: readonly string[],
  shapes: readonly PoolNodeShape[],
): string[] {
  const selected = pod.nodeSelector[GPU_PRODUCT];
  if (selected === undefined) return [];
  return shapes
    .filter(
      s => landed.includes(s.pool) && !s.launchesWellKnown && !s.gpuProducts,
    )
    .map(
      s =>
        `${object} selects ${GPU_PRODUCT}: ${selected}, but the GPU model of ${s.kind}/${s.pool} is not known (pass --catalog with its machine, or give it the pool's gpu-model label), so whether its nodes carry that product name was not checked`,
    );
}

/**
 * Resource names are judged here (as the device plugin serving each pool
 * gives them, when `stack` says), amounts per node by `replica-exceeds-node`.
 * Without any pool in the tree nothing is judged (a tree of workloads only,
 * its pools elsewhere); a workload another rule already reports is not
 * reported twice.
 */
export function checkWorkloadsSchedulable(
  workloads: readonly GpuWorkload[],
  pools: readonly BuiltPool[],
  source: SourceTree,
  findings: Finding[],
  stack: PoolsStack = {},
  notes: string[] = [],
): void {
  // How many a node holds is `replica-exceeds-node`'s to report, on the pool.
  const shapes = poolNodeShapes(pools, stack).map(shape => ({
    ...shape,
    ...(shape.resources
      ? { resources: shape.resources.map(r => ({ name: r.name })) }
      : {}),
  }));
  if (shapes.length === 0) return;
  const seen = new Set<string>();
  for (const workload of workloads) {
    if (seen.has(workload.id)) continue;
    seen.add(workload.id);
    const object = `${workload.object.kind}/${workload.object.metadata.name}`;
    if (findings.some(f => f.object === object && SAID_ALREADY.has(f.rule))) {
      continue;
    }
    const pod = podSchedulingOf(podSpecOf(workload.object));
    const landing = landingPools(pod, shapes);
    notes.push(...unknownProductNotes(object, pod, landing.pools, shapes));
    if (landing.pools.length > 0) continue;
    const pinned = landing.refused.filter(r => r.pool === workload.pool);
    const message =
      pinned.length > 0
        ? pinned[0].reason
        : landingRefusalsText(landing.refused);
    findings.push({
      file: sourceFileOf(source, workload.root, workload.object),
      object,
      rule: 'workload-unschedulable',
      message: `its pods can land on no pool: ${message}`,
    });
  }
}
