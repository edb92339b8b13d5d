import {
  ScaffolderFieldExtensions,
  ScaffolderPage,
} from '@backstage/plugin-scaffolder';
import {
  GpuClusterPickerFieldExtension,
  GpuReleasePreviewFieldExtension,
  GpuRequestPickerFieldExtension,
  GpuWorkloadContainerPickerFieldExtension,
} from './extensions';
import { StepRefusalList } from './StepRefusalList';

/**
 * The scaffolder's page whose form lists a step's refusals in the form's
 * words and only while their value stands (StepRefusalList as the form's
 * `ui:ErrorListTemplate`, read by rjsf 5.24 `getTemplate` from the root
 * uiSchema), with the GPU fields.
 *
 * It is the legacy `ScaffolderPage` because only that one takes `formProps`
 * (`@backstage/plugin-scaffolder` 1.41.0 `dist/index.d.ts` line 212): the
 * new frontend system's templates sub-page passes the form nothing but its
 * theme (`dist/alpha/extensions.esm.js` line 71). The legacy page has the
 * same routes (templates, tasks, actions, editor) and the built-in fields;
 * the GPU fields are given as its field extensions.
 */
export function ScaffolderPageWithRefusalList() {
  return (
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
  );
}
