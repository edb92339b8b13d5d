import { createFrontendFeatureLoader } from '@backstage/frontend-plugin-api';
import { gpuScaffolderFieldsModule } from './formField';
import { gpuPlugin } from './plugin';

/**
 * Everything the GPU plugin adds to an app of the new frontend system: the
 * `gpu` plugin and the scaffolder's GPU form fields.
 *
 * It is the default export of `@gpu-gitops/plugin-gpu/alpha` because package
 * discovery (`app.packages: all`) loads only a package's default exports, and
 * the form fields are a module of another plugin (`scaffolder`), so a plugin
 * alone would leave the gpu-workload form with plain inputs.
 *
 * @alpha
 */
export const gpuFeatures = createFrontendFeatureLoader({
  loader: () => [gpuPlugin, gpuScaffolderFieldsModule],
});
