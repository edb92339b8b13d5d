import { awsMachines } from './awsMachines';
import { karpenterProvider } from './karpenterPool';

/**
 * EKS (or self-managed EC2) with Karpenter's AWS provider.
 *
 * @public
 */
export const awsKarpenterProvider = karpenterProvider(
  { id: 'aws-karpenter', displayName: 'AWS (Karpenter)', machines: 'aws' },
  awsMachines,
);
