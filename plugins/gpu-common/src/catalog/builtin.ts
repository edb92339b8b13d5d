import type { GpuCatalog } from './types';
import { AWS_INSTANCE_TYPES } from './data/awsInstanceTypes';
import { AZURE_VM_SIZES } from './data/azureVmSizes';
import { GCP_MACHINE_TYPES } from './data/gcpMachineTypes';
import { GPU_MODELS } from './data/gpuModels';

/**
 * The catalog shipped with the plugin. Treat it as read-only; organisations
 * change it through `mergeCatalog(builtinCatalog, override)`, which returns a
 * new catalog.
 *
 * @public
 */
export const builtinCatalog: GpuCatalog = {
  models: GPU_MODELS,
  instanceTypes: [
    ...AWS_INSTANCE_TYPES,
    ...AZURE_VM_SIZES,
    ...GCP_MACHINE_TYPES,
  ],
};
