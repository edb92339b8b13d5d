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
  gpuRequestPickerFormField,
  gpuWorkloadContainerPickerFormField,
  gpuScaffolderFieldsModule,
} from './formField';
