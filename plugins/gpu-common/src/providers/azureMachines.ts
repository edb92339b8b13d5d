import { buildAksNodeClass } from '../manifests/aksNodeClass';
import type { KarpenterMachines } from './types';

/**
 * Azure VMs through Karpenter's Azure provider (AKS node auto-provisioning or
 * self-hosted). Labels from Azure/karpenter-provider-azure v1.14.2
 * `pkg/apis/v1beta1/labels.go`: `sku-gpu-manufacturer` is set from the size's
 * GPU vendor (`nvidia`), `sku-gpu-count` from its GPU count
 * (`pkg/providers/instancetype/instancetype.go`). The size's
 * `sku-gpu-name` is parsed from the size name and absent on some (e.g.
 * `Standard_ND96asr_v4`), so it is not required: the sizes are pinned by name.
 * Every catalog size is amd64.
 */
export const azureMachines: KarpenterMachines = {
  gpuCountLabel: 'karpenter.azure.com/sku-gpu-count',
  nodeClass: { group: 'karpenter.azure.com', kind: 'AKSNodeClass' },
  gpuRequirements: () => [
    {
      key: 'karpenter.azure.com/sku-gpu-manufacturer',
      operator: 'In',
      values: ['nvidia'],
    },
  ],
  architectures: () => ['amd64'],
  buildNodeClass: buildAksNodeClass,
};
