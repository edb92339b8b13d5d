/**
 * The nodes a Cluster API pool keeps whatever its ledger needs: a team's
 * own MachineDeployment the import adopted ran its replicas before any
 * request, and its floor (`<labelDomain>/limit-floor`, in GPUs: gpu-node
 * `import/adoptMachineDeployment.ts`) keeps them, in whole machines, so no
 * request or release scales the team's nodes away. A MachineDeployment's
 * size is its nodes; a Karpenter pool's floor is a limit (Karpenter launches
 * only what pods need), so it keeps no node.
 */
import type { InstanceType } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import type { PoolState } from './types';

export function poolFloorNodes(
  pool: Pick<PoolState, 'limitFloor'> | undefined,
  cluster: Pick<ClusterProfile, 'provider'> | undefined,
  machines: readonly InstanceType[],
): number | undefined {
  if (cluster?.provider !== 'cluster-api') return undefined;
  const gpusPerNode = machines[0]?.gpusPerNode;
  if (pool?.limitFloor === undefined || !gpusPerNode) return undefined;
  return Math.ceil(pool.limitFloor / gpusPerNode);
}
