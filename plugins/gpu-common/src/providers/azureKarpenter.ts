import { azureMachines } from './azureMachines';
import { karpenterProvider } from './karpenterPool';

/**
 * AKS with Karpenter's Azure provider (node auto-provisioning or self-hosted).
 *
 * @public
 */
export const azureKarpenterProvider = karpenterProvider(
  {
    id: 'azure-karpenter',
    displayName: 'Azure (Karpenter)',
    machines: 'azure',
  },
  azureMachines,
);
