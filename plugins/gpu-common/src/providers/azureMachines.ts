import { buildAksNodeClass } from '../manifests/aksNodeClass';
import type { InstanceType } from '../catalog/types';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { KarpenterMachines } from './types';

const azureGpuCountLabel = 'karpenter.azure.com/sku-gpu-count';

/** The labels Karpenter's Azure provider derives from a VM size's name alone (same source). */
export function azureNameLabels(name: string): Record<string, string> {
  return {
    [WELL_KNOWN_KEYS.instanceType]: name,
    'kubernetes.io/arch': 'amd64',
    'karpenter.azure.com/sku-name': name,
    'karpenter.azure.com/sku-version': /_v(\d+)$/.exec(name)?.[1] ?? '1',
  };
}

/**
 * The labels Karpenter's Azure provider gives a VM size that the catalog
 * knows the value of (Azure/karpenter-provider-azure v1.14.2
 * `pkg/providers/instancetype/instancetype.go` `computeRequirements`: memory
 * in MiB, the version without its `v`, `1` when the name has none). Family,
 * series and GPU name come from Azure's size parser and the SKU API, which
 * the catalog does not hold, so requirements on them are left to the cluster.
 */
export function azureMachineLabels(type: InstanceType): Record<string, string> {
  const cpu = String(type.vcpu);
  const memory = String(type.memoryMiB);
  return {
    ...azureNameLabels(type.name),
    'karpenter.azure.com/sku-cpu': cpu,
    'karpenter.azure.com/sku-memory': memory,
    'kubernetes.azure.com/sku-cpu': cpu,
    'kubernetes.azure.com/sku-memory': memory,
    'karpenter.azure.com/sku-gpu-manufacturer': 'nvidia',
    [azureGpuCountLabel]: String(type.gpusPerNode),
  };
}

/**
 * Azure's N family is its GPU family (NC, ND, NV, NG sizes): the provider
 * labels those sizes `sku-family: N` (skewer's parse of the size name,
 * `pkg/providers/instancetype/instancetype.go`; "Family of the SKU (N) for
 * GPU", `designs/0002-gpu-selection-and-bootstrap.md`), and hand-written
 * pools also name the sub-family (`NC`).
 */
const isAzureGpuFamily = (family: string) => /^N/.test(family);

/** A GPU size name (`Standard_NC4as_T4_v3`): its family after `Standard_`. */
const isAzureGpuSize = (size: string) =>
  isAzureGpuFamily(size.replace(/^(Standard|Basic)_/i, ''));

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
  gpuCountLabel: azureGpuCountLabel,
  nodeClass: { group: 'karpenter.azure.com', kind: 'AKSNodeClass' },
  gpuLabels: {
    gpuKeys: [
      'karpenter.azure.com/sku-gpu-count',
      'karpenter.azure.com/sku-gpu-name',
      'karpenter.azure.com/sku-gpu-manufacturer',
    ],
    machineKeys: {
      [WELL_KNOWN_KEYS.instanceType]: isAzureGpuSize,
      'karpenter.azure.com/sku-name': isAzureGpuSize,
      'karpenter.azure.com/sku-family': isAzureGpuFamily,
      'karpenter.azure.com/sku-series': isAzureGpuFamily,
    },
    gpuNameKey: 'karpenter.azure.com/sku-gpu-name',
    machineNameKeys: [
      WELL_KNOWN_KEYS.instanceType,
      'karpenter.azure.com/sku-name',
    ],
    // The provider parses the GPU name from the size name (`T4`, `A100`):
    // the catalog models of that GPU, whatever their memory.
    modelsNamed: (gpuName, catalog) =>
      catalog.instanceTypes
        .filter(
          t =>
            t.provider === 'azure' &&
            (t.gpuModel === gpuName.toLowerCase() ||
              t.gpuModel.startsWith(`${gpuName.toLowerCase()}-`)),
        )
        .map(t => t.gpuModel),
  },
  gpuRequirements: () => [
    {
      key: 'karpenter.azure.com/sku-gpu-manufacturer',
      operator: 'In',
      values: ['nvidia'],
    },
  ],
  machineLabels: azureMachineLabels,
  architectures: () => ['amd64'],
  buildNodeClass: buildAksNodeClass,
};
