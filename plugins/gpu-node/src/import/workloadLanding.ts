/**
 * Which GPU pool of the imported cluster a workload runs on, as the
 * scheduler decides it (gpu-common `scheduling/`, the model `verify` and
 * `validate` use): the pools whose nodes its pods can land on, given its
 * node selector, required node affinity, tolerations and the GPU resource
 * it asks for. A pool's nodes may be chosen by any label of its node
 * template, not only by `karpenter.sh/nodepool`.
 */
import {
  landOn,
  podSchedulingOf,
  type LandingModel,
  type PodScheduling,
} from '@gpu-gitops/plugin-gpu-common';

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

/** The pod's scheduling with a v1alpha5 pool selector read as the v1 one. */
function withCurrentPoolLabel(pod: PodScheduling): PodScheduling {
  const { [LEGACY_POOL_LABEL]: legacy, ...rest } = pod.nodeSelector;
  if (legacy === undefined || rest[POOL_LABEL] !== undefined) return pod;
  return { ...pod, nodeSelector: { ...rest, [POOL_LABEL]: legacy } };
}

/** Where the pods of `podSpec` land among the GPU pools of `model` (the readers' model). */
export function workloadLanding(
  podSpec: unknown,
  model: LandingModel,
): WorkloadLanding {
  const landing = landOn(model, withCurrentPoolLabel(podSchedulingOf(podSpec)));
  if (landing.pools.length === 1)
    return { kind: 'one', pool: landing.pools[0] };
  if (landing.pools.length > 1)
    return { kind: 'several', pools: landing.pools };
  return { kind: 'none', reasons: landing.refused.map(r => r.reason) };
}
