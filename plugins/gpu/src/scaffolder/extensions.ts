import { createScaffolderFieldExtension } from '@backstage/plugin-scaffolder-react';
import { gpuPlugin } from '../plugin';
import { GpuClusterPicker } from './GpuClusterPicker';
import {
  GpuRequestPicker,
  validateGpuRequestPicker,
  type GpuRequestPickerUiOptions,
} from './GpuRequestPicker';
import {
  GpuWorkloadContainerPicker,
  validateGpuWorkloadContainerPicker,
  type GpuWorkloadContainerPickerUiOptions,
} from './GpuWorkloadContainerPicker';
import type { GpuRequestPickerValue } from './previewRequest';
import {
  GpuReleasePreview,
  type GpuReleasePreviewUiOptions,
} from './GpuReleasePreview';

/**
 * The `GpuRequestPicker` field for the legacy scaffolder:
 * `<ScaffolderFieldExtensions><GpuRequestPickerFieldExtension /></ScaffolderFieldExtensions>`.
 *
 * @public
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

/**
 * The `GpuWorkloadContainerPicker` field for the legacy scaffolder (the
 * container of an existing workload that gets the GPU):
 * `<ScaffolderFieldExtensions><GpuWorkloadContainerPickerFieldExtension /></ScaffolderFieldExtensions>`.
 *
 * @public
 */
export const GpuWorkloadContainerPickerFieldExtension = gpuPlugin.provide(
  createScaffolderFieldExtension<string, GpuWorkloadContainerPickerUiOptions>({
    name: 'GpuWorkloadContainerPicker',
    component: GpuWorkloadContainerPicker,
    validation: validateGpuWorkloadContainerPicker,
  }),
);

/**
 * The `GpuClusterPicker` field for the legacy scaffolder (a configured
 * cluster, shown with its provider and region):
 * `<ScaffolderFieldExtensions><GpuClusterPickerFieldExtension /></ScaffolderFieldExtensions>`.
 *
 * @public
 */
export const GpuClusterPickerFieldExtension = gpuPlugin.provide(
  createScaffolderFieldExtension<string>({
    name: 'GpuClusterPicker',
    component: GpuClusterPicker,
  }),
);

/**
 * The `GpuReleasePreview` field for the legacy scaffolder (the Release
 * template: what the release deletes and what stays, before it is sent):
 * `<ScaffolderFieldExtensions><GpuReleasePreviewFieldExtension /></ScaffolderFieldExtensions>`.
 *
 * @public
 */
export const GpuReleasePreviewFieldExtension = gpuPlugin.provide(
  createScaffolderFieldExtension<string, GpuReleasePreviewUiOptions>({
    name: 'GpuReleasePreview',
    component: GpuReleasePreview,
  }),
);
