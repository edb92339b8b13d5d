import type { ClusterProfile, ClusterProvider } from '../cluster/types';
import { awsMachines } from './awsMachines';
import { azureMachines } from './azureMachines';
import type { KarpenterMachines } from './types';

const KARPENTER_MACHINES: Record<
  ClusterProvider,
  KarpenterMachines | undefined
> = {
  'aws-karpenter': awsMachines,
  'azure-karpenter': azureMachines,
  static: undefined,
  'cluster-api': undefined,
};

/**
 * How the cluster's Karpenter cloud provider names GPU machines; undefined
 * where Karpenter does not launch the nodes. The NodePool and NodeOverlay
 * builders look it up here (not through `poolProviderOf`, whose providers
 * call those builders).
 */
export function karpenterMachinesOf(
  cluster: Pick<ClusterProfile, 'provider'>,
): KarpenterMachines | undefined {
  return KARPENTER_MACHINES[cluster.provider];
}

/**
 * Kinds of the node classes Karpenter's providers define (`EC2NodeClass`,
 * `AKSNodeClass`): a pool file may carry one, written once per cluster.
 *
 * @public
 */
export const NODE_CLASS_KINDS: readonly string[] = Object.values(
  KARPENTER_MACHINES,
).flatMap(machines => (machines ? [machines.nodeClass.kind] : []));
