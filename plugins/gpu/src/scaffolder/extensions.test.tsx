import { getComponentData } from '@backstage/core-plugin-api';
import { createExtensionTester } from '@backstage/frontend-test-utils';
import { FormFieldBlueprint } from '@backstage/plugin-scaffolder-react/alpha';
import {
  gpuRequestPickerFormField,
  gpuWorkloadContainerPickerFormField,
} from '../alpha';
import { GpuRequestPicker, validateGpuRequestPicker } from './GpuRequestPicker';
import {
  GpuWorkloadContainerPicker,
  validateGpuWorkloadContainerPicker,
} from './GpuWorkloadContainerPicker';
import {
  GpuRequestPickerFieldExtension,
  GpuWorkloadContainerPickerFieldExtension,
} from './extensions';

describe('GpuRequestPicker field extensions', () => {
  it('registers the picker as ui:field GpuRequestPicker in the legacy scaffolder', () => {
    const data = getComponentData<any>(
      <GpuRequestPickerFieldExtension />,
      'scaffolder.extensions.field.v1',
    );
    expect(data).toMatchObject({
      name: 'GpuRequestPicker',
      component: GpuRequestPicker,
      validation: validateGpuRequestPicker,
    });
  });

  it('loads the same field through FormFieldBlueprint in the new frontend system', async () => {
    const loader = createExtensionTester(gpuRequestPickerFormField).get(
      FormFieldBlueprint.dataRefs.formFieldLoader,
    );
    const field: any = await loader();
    expect(field).toMatchObject({
      $$type: '@backstage/scaffolder/FormField',
      name: 'GpuRequestPicker',
      component: GpuRequestPicker,
      validation: validateGpuRequestPicker,
    });
  });

  it('registers GpuWorkloadContainerPicker in both frontend systems', async () => {
    expect(
      getComponentData<any>(
        <GpuWorkloadContainerPickerFieldExtension />,
        'scaffolder.extensions.field.v1',
      ),
    ).toMatchObject({
      name: 'GpuWorkloadContainerPicker',
      component: GpuWorkloadContainerPicker,
      validation: validateGpuWorkloadContainerPicker,
    });
    const loader = createExtensionTester(
      gpuWorkloadContainerPickerFormField,
    ).get(FormFieldBlueprint.dataRefs.formFieldLoader);
    expect(await loader()).toMatchObject({
      $$type: '@backstage/scaffolder/FormField',
      name: 'GpuWorkloadContainerPicker',
      component: GpuWorkloadContainerPicker,
      validation: validateGpuWorkloadContainerPicker,
    });
  });
});
