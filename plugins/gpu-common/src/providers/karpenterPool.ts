import type { ClusterProfile } from '../cluster/types';
import { buildNodeOverlays } from '../manifests/nodeOverlay';
import { buildNodePool } from '../manifests/nodePool';
import type { KubernetesObject } from '../manifests/types';
import type { Plan } from '../planner/types';
import type { KarpenterMachines, PoolProvider } from './types';

/**
 * Whether the profile asks for the node class the product writes: generation
 * on, and the class named is this provider's kind (a profile pointing at
 * another kind keeps its own class).
 */
export function generatesNodeClass(
  cluster: ClusterProfile,
  machines: KarpenterMachines,
): boolean {
  return (
    cluster.generateNodeClass &&
    cluster.nodeClass.group === machines.nodeClass.group &&
    cluster.nodeClass.kind === machines.nodeClass.kind
  );
}

/**
 * A Karpenter pool: its NodePool, then its NodeOverlays (shared and MIG
 * pools, with the NodeOverlay gate on), then the cluster's node class when
 * the profile generates it.
 */
export function karpenterPoolObjects(
  plan: Plan,
  cluster: ClusterProfile,
  machines: KarpenterMachines,
): KubernetesObject[] {
  const objects = [
    buildNodePool(plan, cluster),
    ...buildNodeOverlays(plan, cluster),
  ];
  if (machines.buildNodeClass && generatesNodeClass(cluster, machines)) {
    objects.push(machines.buildNodeClass(cluster));
  }
  return objects;
}

/**
 * A provider whose pools are Karpenter NodePools on `machines`.
 */
export function karpenterProvider(
  provider: Pick<PoolProvider, 'id' | 'displayName' | 'machines'>,
  machines: KarpenterMachines,
): PoolProvider {
  return {
    ...provider,
    poolKind: 'NodePool',
    karpenter: machines,
    poolObjects: (plan, cluster) =>
      karpenterPoolObjects(plan, cluster, machines),
  };
}
