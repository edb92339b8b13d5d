/**
 * The GPU plugin for Backstage's new frontend system.
 *
 * @packageDocumentation
 */
export { gpuFeatures as default } from './gpuFeatures';
export {
  gpuPlugin,
  gpuApi,
  gpuAllocationEntityCard,
  gpuEntityContent,
  gpuOverviewPage,
  gpuOverviewPageRouteRef,
  gpuPullRequestsPage,
} from './plugin';
export {
  gpuClusterPickerFormField,
  gpuReleasePreviewFormField,
  gpuRequestPickerFormField,
  gpuWorkloadContainerPickerFormField,
  gpuScaffolderFieldsModule,
} from './formField';
export { gpuScaffolderPage, scaffolderModuleGpuPage } from './scaffolderPage';
