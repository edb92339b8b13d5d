/**
 * Which node label names a node's pool, per provider: the label a GPU pod
 * selects to land on its pool (`manifests/podPlacement.ts`), the one verify
 * and validate read back, and the one drift lists a cluster's nodes by.
 */
import type { ClusterProfile } from '../cluster/types';
import { GKE_NODE_LABELS } from '../manifests/computeClass';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import { poolProviderOf } from './poolProviders';

/**
 * Karpenter puts `karpenter.sh/nodepool` on every node it launches, known
 * before launch, also for a hand-written pool the product adopted (adoption
 * adds annotations only, never template labels: a changed template replaces
 * every node), so such nodes may lack the product's pool label. Cluster API
 * and static nodes carry only the product's `<labelDomain>/pool`: kubelet
 * registers it from the KubeadmConfigTemplate's `node-labels`, nfd-master
 * sets it from the NodeFeatureRule's `labels`; nothing there ever sets
 * `karpenter.sh/nodepool`.
 *
 * @public
 */
export function poolNodeLabel(
  cluster: Pick<ClusterProfile, 'provider' | 'clusterApi' | 'labelDomain'>,
): string {
  const provider = poolProviderOf(cluster);
  if (provider.nodePoolLabel) return provider.nodePoolLabel;
  return provider.karpenter
    ? WELL_KNOWN_KEYS.karpenterNodePool
    : `${cluster.labelDomain}/pool`;
}

/**
 * The pool a pod template's `nodeSelector` pins it to, by a provider's pool
 * label: `karpenter.sh/nodepool` or GKE's `cloud.google.com/compute-class`,
 * else the product's `<labelDomain>/pool`.
 * For readers that do not know the cluster's profile (the workloads folder
 * serves every cluster); without `labelDomain` any `<domain>/pool` key is
 * read, and a selector naming two different pools names none.
 *
 * @public
 */
export function poolSelectedBy(
  nodeSelector: Record<string, unknown> | undefined,
  labelDomain?: string,
): string | undefined {
  if (!nodeSelector) return undefined;
  const byProvider =
    nodeSelector[WELL_KNOWN_KEYS.karpenterNodePool] ??
    nodeSelector[GKE_NODE_LABELS.computeClass];
  if (typeof byProvider === 'string') return byProvider;
  const isPoolKey = (key: string) =>
    labelDomain
      ? key === `${labelDomain}/pool`
      : /^[a-z0-9.-]+\/pool$/.test(key);
  const values = Object.entries(nodeSelector)
    .filter(([key]) => isPoolKey(key))
    .map(([, value]) => value)
    .filter((value): value is string => typeof value === 'string');
  return new Set(values).size === 1 ? values[0] : undefined;
}
