import { createApp } from '@backstage/frontend-defaults';
import { createFrontendModule } from '@backstage/frontend-plugin-api';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import scaffolderPlugin from '@backstage/plugin-scaffolder/alpha';
import {
  gpuPlugin,
  gpuScaffolderFieldsModule,
  scaffolderModuleGpuPage,
} from '@gpu-gitops/plugin-gpu/alpha';
import { guestSignInPage } from './signInPage';
import { homeRedirectPage } from './homeRedirect';

/** App-level extensions: guest sign-in and `/` → catalog. */
export const appModule = createFrontendModule({
  pluginId: 'app',
  extensions: [guestSignInPage, homeRedirectPage],
});

/**
 * Everything the local app installs, listed explicitly (no package
 * discovery): the catalog, the scaffolder with the GpuRequestPicker,
 * GpuWorkloadContainerPicker, GpuClusterPicker and GpuReleasePreview (the
 * Release form's dry run) fields (gpuScaffolderFieldsModule),
 * the GPU plugin (entity card, GPU tab, the GPU page at `/gpu` and the
 * pull-request review page at `/gpu/pull-requests` — both in the sidebar,
 * as "GPU" and "GPU PRs", which lists every page with a route ref, a title
 * and an icon — and the API), the scaffolder's page at `/create` whose
 * form lists a step's refusals in the form's words (scaffolderModuleGpuPage)
 * and the app module.
 */
export const features = [
  catalogPlugin,
  scaffolderPlugin,
  gpuScaffolderFieldsModule,
  scaffolderModuleGpuPage,
  gpuPlugin,
  appModule,
];

export const app = createApp({ features });
