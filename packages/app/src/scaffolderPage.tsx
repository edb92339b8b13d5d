import {
  createFrontendModule,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import {
  rootRouteRef,
  ScaffolderFieldExtensions,
  ScaffolderPage,
} from '@backstage/plugin-scaffolder';
import {
  GpuClusterPickerFieldExtension,
  GpuReleasePreviewFieldExtension,
  GpuRequestPickerFieldExtension,
  GpuWorkloadContainerPickerFieldExtension,
  StepRefusalList,
} from '@gpu-gitops/plugin-gpu';

/**
 * The scaffolder's page at `/create`, with the form's refusals at the top of
 * a step in the form's words and only while their value stands
 * (StepRefusalList as the form's `ui:ErrorListTemplate`, read by rjsf 5.24
 * `getTemplate` from the root uiSchema).
 *
 * It is the legacy `ScaffolderPage` because only that one takes `formProps`
 * (`@backstage/plugin-scaffolder` 1.41.0 `dist/index.d.ts` line 212): the
 * new frontend system's templates sub-page passes the form nothing but its
 * theme (`dist/alpha/extensions.esm.js` line 71). The legacy page has the
 * same routes (templates, tasks, actions, editor) and the built-in fields;
 * the GPU fields are given as its field extensions.
 */
export const scaffolderPageWithRefusalList = PageBlueprint.make({
  params: {
    path: '/create',
    routeRef: rootRouteRef,
    // The legacy page draws its own header.
    noHeader: true,
    loader: async () => (
      <ScaffolderPage
        formProps={{ uiSchema: { 'ui:ErrorListTemplate': StepRefusalList } }}
      >
        <ScaffolderFieldExtensions>
          <GpuRequestPickerFieldExtension />
          <GpuWorkloadContainerPickerFieldExtension />
          <GpuClusterPickerFieldExtension />
          <GpuReleasePreviewFieldExtension />
        </ScaffolderFieldExtensions>
      </ScaffolderPage>
    ),
  },
});

/** Replaces the scaffolder plugin's own `page:scaffolder` (same plugin id, same extension id). */
export const scaffolderPageModule = createFrontendModule({
  pluginId: 'scaffolder',
  extensions: [scaffolderPageWithRefusalList],
});
