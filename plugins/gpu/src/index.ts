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
  GpuPullRequestsPage,
} from './plugin';
export { gpuApiRef, GpuClient, GpuPlanRejectedError } from './api';
export type { GpuApi } from './api';
export { GPU_TEMPLATE_PATH } from './components/GpuAllocationCard';
export {
  GpuRequestPickerFieldExtension,
  GpuWorkloadContainerPickerFieldExtension,
} from './scaffolder/extensions';
export {
  GpuRequestPicker,
  validateGpuRequestPicker,
} from './scaffolder/GpuRequestPicker';
export type { GpuRequestPickerUiOptions } from './scaffolder/GpuRequestPicker';
export {
  GpuWorkloadContainerPicker,
  validateGpuWorkloadContainerPicker,
} from './scaffolder/GpuWorkloadContainerPicker';
export type { GpuWorkloadContainerPickerUiOptions } from './scaffolder/GpuWorkloadContainerPicker';
export type { GpuRequestPickerValue } from './scaffolder/previewRequest';
