import {
  createFrontendModule,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import { rootRouteRef } from '@backstage/plugin-scaffolder';

/**
 * The scaffolder's page at `/create` whose form lists a step's refusals in
 * the form's words (StepRefusalList), with the GPU fields: the legacy
 * `ScaffolderPage`, the only one that passes the form its props (see
 * `ScaffolderPageWithRefusalList`).
 *
 * @alpha
 */
export const gpuScaffolderPage = PageBlueprint.make({
  params: {
    path: '/create',
    routeRef: rootRouteRef,
    // The legacy page draws its own header.
    noHeader: true,
    loader: () =>
      import('../scaffolder/ScaffolderPageWithRefusalList').then(m => (
        <m.ScaffolderPageWithRefusalList />
      )),
  },
});

/**
 * Replaces the scaffolder plugin's own page (`page:scaffolder`: a module of
 * the `scaffolder` plugin with an unnamed page has the same extension id)
 * with `gpuScaffolderPage`. Install it beside `@backstage/plugin-scaffolder/alpha`;
 * it is not part of the default export, since it swaps another plugin's page.
 *
 * @alpha
 */
export const scaffolderModuleGpuPage = createFrontendModule({
  pluginId: 'scaffolder',
  extensions: [gpuScaffolderPage],
});
