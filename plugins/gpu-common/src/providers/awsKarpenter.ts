import { awsMachines } from './awsMachines';
import { karpenterPoolObjects } from './karpenterPool';
import type { PoolProvider } from './types';

/** @public */
export const awsKarpenterProvider: PoolProvider = {
  id: 'aws-karpenter',
  displayName: 'AWS (Karpenter)',
  machines: 'aws',
  poolKind: 'NodePool',
  karpenter: awsMachines,
  poolObjects: (plan, cluster) =>
    karpenterPoolObjects(plan, cluster, awsMachines),
};
