/**
 * The GPU plugin for Backstage's new frontend system.
 *
 * @packageDocumentation
 */
export {
  gpuPlugin as default,
  gpuApi,
  gpuAllocationEntityCard,
  gpuEntityContent,
  gpuOverviewPage,
  gpuOverviewPageRouteRef,
  gpuPullRequestsPage,
} from './plugin';
export {
  gpuClusterPickerFormField,
  gpuRequestPickerFormField,
  gpuWorkloadContainerPickerFormField,
  gpuScaffolderFieldsModule,
} from './formField';
