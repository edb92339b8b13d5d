import {
  createFormField,
  FormFieldBlueprint,
} from '@backstage/plugin-scaffolder-react/alpha';
import { createFrontendModule } from '@backstage/frontend-plugin-api';

/** The `GpuRequestPicker` scaffolder field for the new frontend system. */
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

/** Adds the GpuRequestPicker field to the scaffolder plugin (install beside `@gpu-gitops/plugin-gpu/alpha`). */
export const gpuScaffolderFieldsModule = createFrontendModule({
  pluginId: 'scaffolder',
  extensions: [gpuRequestPickerFormField],
});
