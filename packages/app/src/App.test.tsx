import { ConfigReader } from '@backstage/config';
import { prepareSpecializedApp } from '@backstage/frontend-app-api';
import appPlugin from '@backstage/plugin-app';
import { formFieldsApiRef } from '@backstage/plugin-scaffolder/alpha';
import { render, screen } from '@testing-library/react';
import { features } from './App';

const config = new ConfigReader({
  app: { title: 'GPU GitOps for Backstage', baseUrl: 'http://localhost:3000' },
  backend: { baseUrl: 'http://localhost:7007' },
});

// The wiring createApp (@backstage/frontend-defaults) does: the app plugin
// first, then the app's features; config given here instead of read from
// the page. Bootstrapping throws if the tree is broken (e.g. two sign-in pages).
function bootstrap() {
  return prepareSpecializedApp({
    features: [appPlugin, ...features],
    config,
  }).getBootstrapApp();
}

describe('the local app', () => {
  it.each([
    // [extension, where it must be attached, input]
    ['api:gpu', 'root', 'apis'],
    ['entity-card:gpu/allocation', 'entity-content:catalog/overview', 'cards'],
    ['entity-content:gpu/gpu', 'page:catalog/entity', 'contents'],
    [
      'scaffolder-form-field:scaffolder/gpu-request-picker',
      'api:scaffolder/form-fields',
      'formFields',
    ],
    [
      'scaffolder-form-field:scaffolder/gpu-workload-container-picker',
      'api:scaffolder/form-fields',
      'formFields',
    ],
    [
      'scaffolder-form-field:scaffolder/gpu-release-preview',
      'api:scaffolder/form-fields',
      'formFields',
    ],
    ['page:gpu/pull-requests', 'app/routes', 'routes'],
    ['page:gpu/overview', 'app/routes', 'routes'],
    ['page:catalog', 'app/routes', 'routes'],
    ['page:scaffolder', 'app/routes', 'routes'],
    ['page:app/home-redirect', 'app/routes', 'routes'],
    ['sign-in-page:app', 'app/root', 'signInPage'],
  ])('attaches %s to %s (%s)', (id, parent, input) => {
    const node = bootstrap().tree.nodes.get(id);
    expect(node?.spec.disabled).toBe(false);
    expect(node?.edges.attachedTo?.node.spec.id).toBe(parent);
    expect(node?.edges.attachedTo?.input).toBe(input);
  });

  it("gives the scaffolder's form the GpuRequestPicker, GpuWorkloadContainerPicker, GpuClusterPicker and GpuReleasePreview fields", async () => {
    const formFields = await bootstrap()
      .apis.get(formFieldsApiRef)!
      .loadFormFields();
    const names = formFields.map(field => (field as { name?: string }).name);
    expect(names).toEqual(
      expect.arrayContaining([
        'GpuRequestPicker',
        'GpuWorkloadContainerPicker',
        'GpuClusterPicker',
        'GpuReleasePreview',
      ]),
    );
    // The built-in pickers the template also uses are still there.
    expect(names).toEqual(
      expect.arrayContaining(['EntityNamePicker', 'OwnerPicker']),
    );
  });

  it('starts on the guest sign-in page', async () => {
    render(bootstrap().element);
    expect(
      await screen.findByText('Enter as a Guest User.', { exact: false }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('GPU GitOps for Backstage'),
    ).toBeInTheDocument();
  });
});
