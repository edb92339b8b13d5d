import type { GpuCatalog } from './types';
import { AWS_INSTANCE_TYPES } from './data/aws-instance-types';
import { GPU_MODELS } from './data/gpu-models';

/**
 * The catalog shipped with the plugin. Treat it as read-only; organisations
 * change it through `mergeCatalog(builtinCatalog, override)`, which returns a
 * new catalog.
 *
 * @public
 */
export const builtinCatalog: GpuCatalog = {
  models: GPU_MODELS,
  instanceTypes: AWS_INSTANCE_TYPES,
};
