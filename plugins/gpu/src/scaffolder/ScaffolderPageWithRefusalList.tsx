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
import { FieldRefusals } from './FieldRefusals';
import { StepRefusalList } from './StepRefusalList';

const fieldErrorTemplate = { FieldErrorTemplate: FieldRefusals };

/**
 * The scaffolder's page whose form lists a step's refusals in the form's
 * words and only while their value stands (StepRefusalList as the form's
 * `ui:ErrorListTemplate`, read by rjsf 5.24 `getTemplate` from the root
 * uiSchema), the text under each field likewise (FieldRefusals as every
 * field's `FieldErrorTemplate`, from `ui:globalOptions`), with the GPU fields.
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
      formProps={{
        uiSchema: {
          'ui:ErrorListTemplate': StepRefusalList,
          // Every field's own: rjsf 5.24 reads `ui:globalOptions` into each
          // field's ui options (`@rjsf/utils` getUiOptions), where
          // getTemplate finds its templates. Its type lists only the flags,
          // so the template is spread beside one of them (`label: true`,
          // the default).
          'ui:globalOptions': { label: true, ...fieldErrorTemplate },
        },
      }}
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
