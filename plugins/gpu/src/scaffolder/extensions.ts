import { createScaffolderFieldExtension } from '@backstage/plugin-scaffolder-react';
import { gpuPlugin } from '../plugin';
import {
  GpuRequestPicker,
  validateGpuRequestPicker,
  type GpuRequestPickerUiOptions,
} from './GpuRequestPicker';
import type { GpuRequestPickerValue } from './previewRequest';

/**
 * The `GpuRequestPicker` field for the legacy scaffolder:
 * `<ScaffolderFieldExtensions><GpuRequestPickerFieldExtension /></ScaffolderFieldExtensions>`.
 */
export const GpuRequestPickerFieldExtension = gpuPlugin.provide(
  createScaffolderFieldExtension<
    GpuRequestPickerValue,
    GpuRequestPickerUiOptions
  >({
    name: 'GpuRequestPicker',
    component: GpuRequestPicker,
    validation: validateGpuRequestPicker,
  }),
);
