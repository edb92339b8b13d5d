/**
 * GPU allocation card, GPU tab (pools, MIG layout) and the GPU request picker
 * for the scaffolder. Legacy frontend system here; the new frontend system is
 * in `@gpu-gitops/plugin-gpu/alpha`.
 *
 * @packageDocumentation
 */
export {
  gpuPlugin,
  EntityGpuAllocationCard,
  EntityGpuAllocationContent,
} from './plugin';
export { gpuApiRef, GpuClient } from './api';
export type { GpuApi } from './api';
export { GPU_TEMPLATE_PATH } from './components/GpuAllocationCard';
