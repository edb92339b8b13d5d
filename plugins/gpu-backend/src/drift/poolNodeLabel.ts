/**
 * Which node label names a node's pool, per provider: drift lists a
 * cluster's pool nodes by the label's presence (one nodes list per refresh,
 * `readClusterObjects.ts`) and groups them by its value (`detectDrift.ts`).
 */
import {
  poolProviderOf,
  WELL_KNOWN_KEYS,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * Karpenter puts `karpenter.sh/nodepool` on every node it launches, also
 * for a hand-written pool the product adopted (adoption adds annotations
 * only, never template labels: a changed template replaces every node), so
 * such nodes lack the product's pool label. Cluster API and static nodes
 * carry only the product's `<labelDomain>/pool`: kubelet registers it from
 * the KubeadmConfigTemplate's `node-labels`, nfd-master sets it from the
 * NodeFeatureRule (the `labels` of `poolObjects` in gpu-common's
 * `providers/`).
 */
export function poolNodeLabel(profile: ClusterProfile): string {
  return poolProviderOf(profile).karpenter
    ? WELL_KNOWN_KEYS.karpenterNodePool
    : `${profile.labelDomain}/pool`;
}
