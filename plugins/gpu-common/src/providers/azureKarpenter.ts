import { azureMachines } from './azureMachines';
import { karpenterPoolObjects } from './karpenterPool';
import type { PoolProvider } from './types';

/** @public */
export const azureKarpenterProvider: PoolProvider = {
  id: 'azure-karpenter',
  displayName: 'Azure (Karpenter)',
  machines: 'azure',
  poolKind: 'NodePool',
  karpenter: azureMachines,
  poolObjects: (plan, cluster) =>
    karpenterPoolObjects(plan, cluster, azureMachines),
};
