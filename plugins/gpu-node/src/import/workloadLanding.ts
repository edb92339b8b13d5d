/**
 * Which GPU pool of the imported cluster a workload runs on, as the
 * scheduler decides it (gpu-common `scheduling/`, the model `verify` and
 * `validate` use): the pools whose nodes its pods can land on, given its
 * node selector, required node affinity, tolerations and the GPU resource
 * it asks for. A pool's nodes may be chosen by any label of its node
 * template, not only by `karpenter.sh/nodepool`.
 */
import {
  landingPools,
  nodeShapeOf,
  podSchedulingOf,
  poolGpuProducts,
  type MigStrategy,
  type PodScheduling,
  type PoolNodeShape,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { asKubernetesObject, type ParsedDocument } from '../repo/yamlObjects';

/**
 * The v1alpha5 node label of a Provisioner's nodes (renamed
 * `karpenter.sh/nodepool` in v1beta1); the import converts each Provisioner
 * to the NodePool of the same name, so a selector on it means that pool.
 */
export const LEGACY_POOL_LABEL = 'karpenter.sh/provisioner-name';
const POOL_LABEL = 'karpenter.sh/nodepool';

/** Where a workload's pods land: one pool, none (with why), or several (ambiguous). */
export type WorkloadLanding =
  | { kind: 'one'; pool: string }
  | { kind: 'none'; reasons: string[] }
  | { kind: 'several'; pools: string[] };

/**
 * The node shapes of the GPU pools: each pool's object among `documents`
 * (a v1 NodePool once converted), its nodes advertising the resource the
 * pool serves (per-node counts are the request's to judge, not here) and
 * the product name its model's GPUs get (gpu-common `poolGpuProducts`, the
 * rule of every node shape).
 */
export function gpuPoolShapes(
  documents: readonly ParsedDocument[],
  pools: readonly PoolState[],
  migStrategy?: MigStrategy,
): PoolNodeShape[] {
  return pools.flatMap(pool => {
    const object = documents
      .map(d => asKubernetesObject(d.value))
      .find(o => o?.metadata.name === pool.name && o.kind === 'NodePool');
    if (!object) return [];
    const gpuProducts = poolGpuProducts(pool, migStrategy);
    return [
      {
        ...nodeShapeOf(object, { resources: [{ name: pool.resourceName }] }),
        ...(gpuProducts ? { gpuProducts } : {}),
      },
    ];
  });
}

/** The pod's scheduling with a v1alpha5 pool selector read as the v1 one. */
function withCurrentPoolLabel(pod: PodScheduling): PodScheduling {
  const { [LEGACY_POOL_LABEL]: legacy, ...rest } = pod.nodeSelector;
  if (legacy === undefined || rest[POOL_LABEL] !== undefined) return pod;
  return { ...pod, nodeSelector: { ...rest, [POOL_LABEL]: legacy } };
}

/** Where the pods of `podSpec` land among the GPU pools `shapes`. */
export function workloadLanding(
  podSpec: unknown,
  shapes: readonly PoolNodeShape[],
): WorkloadLanding {
  const landing = landingPools(
    withCurrentPoolLabel(podSchedulingOf(podSpec)),
    shapes,
  );
  if (landing.pools.length === 1)
    return { kind: 'one', pool: landing.pools[0] };
  if (landing.pools.length > 1)
    return { kind: 'several', pools: landing.pools };
  return { kind: 'none', reasons: landing.refused.map(r => r.reason) };
}
