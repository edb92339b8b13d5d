/**
 * GPU allocation card, GPU tab (pools, MIG layout), GPU page and the GPU request picker
 * for the scaffolder. Legacy frontend system here; the new frontend system is
 * in `@gpu-gitops/plugin-gpu/alpha`.
 *
 * @packageDocumentation
 */
export { gpuApiRef } from './api/GpuApi';
export type { GpuApi } from './api/GpuApi';
export { GpuClient } from './api/GpuClient';
export { GpuPlanRejectedError } from './api/GpuPlanRejectedError';
export {
  GPU_TEMPLATE_PATH,
  GpuAllocationCard,
} from './components/GpuAllocationCard/GpuAllocationCard';
export { GpuOverview } from './components/GpuOverviewPage/GpuOverviewPage';
export { GpuPoolsContent } from './components/GpuPoolsContent/GpuPoolsContent';
export { PullRequestPage } from './components/PullRequestPage/PullRequestPage';
export {
  EntityGpuAllocationCard,
  EntityGpuAllocationContent,
  GpuOverviewPage,
  GpuPullRequestsPage,
  gpuPlugin,
} from './plugin';
export {
  GpuClusterPickerFieldExtension,
  GpuReleasePreviewFieldExtension,
  GpuRequestPickerFieldExtension,
  GpuWorkloadContainerPickerFieldExtension,
} from './scaffolder/extensions';
export { GpuClusterPicker } from './scaffolder/GpuClusterPicker';
export { GpuReleasePreview } from './scaffolder/GpuReleasePreview';
export { StepRefusalList } from './scaffolder/StepRefusalList';
export { FieldRefusals } from './scaffolder/FieldRefusals';
export type { FieldRefusalsProps } from './scaffolder/FieldRefusals';
export type {
  StepRefusal,
  StepRefusalListProps,
} from './scaffolder/StepRefusalList';
export type { GpuReleasePreviewUiOptions } from './scaffolder/GpuReleasePreview';
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
