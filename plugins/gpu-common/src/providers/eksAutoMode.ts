import { buildNodePool } from '../manifests/nodePool';
import { eksAutoModeMachines } from './eksAutoModeMachines';
import type { PoolProvider } from './types';

/**
 * EKS Auto Mode: Karpenter run by AWS. A pool is its NodePool alone: AWS
 * runs Karpenter without the NodeOverlay CRD (no source documents it for
 * Auto Mode, and its Karpenter's gates are not the platform's to set), and
 * the node class is AWS's or the platform team's (eksAutoModeMachines.ts).
 * Sharing modes that need NodeOverlays or a device-plugin config are refused
 * before anything is built (cluster/eksAutoMode.ts).
 *
 * @public
 */
export const eksAutoModeProvider: PoolProvider = {
  id: 'eks-auto-mode',
  displayName: 'AWS (EKS Auto Mode)',
  machines: 'aws',
  poolKind: 'NodePool',
  karpenter: eksAutoModeMachines,
  poolObjects: (plan, cluster) => [buildNodePool(plan, cluster)],
};
