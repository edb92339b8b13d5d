/**
 * GPU nodes no pool of the product's describes, in the landing model beside
 * its pools. A pod lands on any node that satisfies its selectors and
 * advertises what it asks for, whoever wrote the node's pool: a GPU pod
 * without selectors lands on ANY node with allocatable `nvidia.com/gpu`
 * (kube-scheduler's NodeResourcesFit and NodeAffinity filters, Kubernetes
 * "Assigning Pods to Nodes"). So "lands only on the planned pool", "no pool
 * serves it" and the pool a workload is counted on must all see:
 *
 * - on a static or Cluster API cluster (no Karpenter NodePool), the team's
 *   own GPU servers its NodeFeatureRules label (`nfdGpuNodeClasses`): what
 *   they advertise and their taints are not in the repository, so any
 *   resource is taken as there and no taint as set (the pod may land);
 * - on a Karpenter cluster, the team's hand-written GPU NodePools (read by
 *   the caller as node shapes, with their taints and requirements).
 */
import { nfdGpuNodeClasses } from './nfdRuleLabels';
import type { PoolNodeShape } from './nodeShape';

/** The GPU nodes one team NFD class labels (`<object>/<rule>`). */
function teamNfdGpuNodes(objects: readonly unknown[]): PoolNodeShape[] {
  return nfdGpuNodeClasses(objects).map(gpuClass => ({
    pool: gpuClass.rule,
    kind: 'NodeFeatureRule',
    labels: gpuClass.labels,
    requirements: [],
    launchesWellKnown: false,
    taints: [],
    unpooled: true,
  }));
}

/**
 * The shapes a cluster's GPU pods may land on: the product's `pools`, the
 * team's `handWritten` GPU NodePools, and (where Karpenter launches no
 * node: no NodePool among them) the GPU nodes the team's own NodeFeatureRules
 * among `objects` label. Every shape but the pools' is `unpooled`.
 *
 * @public
 */
export function withUnpooledGpuNodes(
  pools: readonly PoolNodeShape[],
  objects: readonly unknown[],
  handWritten: readonly PoolNodeShape[] = [],
): PoolNodeShape[] {
  const own = handWritten.map(shape => ({ ...shape, unpooled: true as const }));
  const karpenter = [...pools, ...own].some(s => s.launchesWellKnown);
  return [...pools, ...own, ...(karpenter ? [] : teamNfdGpuNodes(objects))];
}

/**
 * Those GPU nodes in a reviewer's words, e.g. "the GPU nodes the team's
 * NodeFeatureRule gpu-class/a100 labels" or "hand-written NodePool gpu-team".
 *
 * @public
 */
export function unpooledNodesText(shape: PoolNodeShape): string {
  return shape.kind === 'NodeFeatureRule'
    ? `the GPU nodes the team's NodeFeatureRule ${shape.pool} labels`
    : `hand-written ${shape.kind} ${shape.pool}`;
}
