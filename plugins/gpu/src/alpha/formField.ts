import {
  createFormField,
  FormFieldBlueprint,
} from '@backstage/plugin-scaffolder-react/alpha';
import { createFrontendModule } from '@backstage/frontend-plugin-api';

/**
 *  The `GpuRequestPicker` scaffolder field for the new frontend system.
 *
 * @alpha
 */
export const gpuRequestPickerFormField = FormFieldBlueprint.make({
  name: 'gpu-request-picker',
  params: {
    field: () =>
      import('../scaffolder/GpuRequestPicker').then(m =>
        createFormField({
          name: 'GpuRequestPicker',
          component: m.GpuRequestPicker,
          validation: m.validateGpuRequestPicker,
        }),
      ),
  },
});

/**
 *  The `GpuWorkloadContainerPicker` scaffolder field for the new frontend system.
 *
 * @alpha
 */
export const gpuWorkloadContainerPickerFormField = FormFieldBlueprint.make({
  name: 'gpu-workload-container-picker',
  params: {
    field: () =>
      import('../scaffolder/GpuWorkloadContainerPicker').then(m =>
        createFormField({
          name: 'GpuWorkloadContainerPicker',
          component: m.GpuWorkloadContainerPicker,
          validation: m.validateGpuWorkloadContainerPicker,
        }),
      ),
  },
});

/**
 *  The `GpuClusterPicker` scaffolder field for the new frontend system.
 *
 * @alpha
 */
export const gpuClusterPickerFormField = FormFieldBlueprint.make({
  name: 'gpu-cluster-picker',
  params: {
    field: () =>
      import('../scaffolder/GpuClusterPicker').then(m =>
        createFormField({
          name: 'GpuClusterPicker',
          component: m.GpuClusterPicker,
        }),
      ),
  },
});

/**
 *  The `GpuReleasePreview` scaffolder field for the new frontend system.
 *
 * @alpha
 */
export const gpuReleasePreviewFormField = FormFieldBlueprint.make({
  name: 'gpu-release-preview',
  params: {
    field: () =>
      import('../scaffolder/GpuReleasePreview').then(m =>
        createFormField({
          name: 'GpuReleasePreview',
          component: m.GpuReleasePreview,
        }),
      ),
  },
});

/**
 * Adds the GpuRequestPicker, GpuWorkloadContainerPicker, GpuClusterPicker
 * and GpuReleasePreview fields to the scaffolder plugin (install beside `@gpu-gitops/plugin-gpu/alpha`).
 *
 * @alpha
 */
export const gpuScaffolderFieldsModule = createFrontendModule({
  pluginId: 'scaffolder',
  extensions: [
    gpuRequestPickerFormField,
    gpuWorkloadContainerPickerFormField,
    gpuClusterPickerFormField,
    gpuReleasePreviewFormField,
  ],
});
