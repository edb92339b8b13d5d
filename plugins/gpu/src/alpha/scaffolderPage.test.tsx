import { renderTestApp } from '@backstage/frontend-test-utils';
import scaffolderPlugin from '@backstage/plugin-scaffolder/alpha';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import {
  scaffolderApiRef,
  type ScaffolderApi,
} from '@backstage/plugin-scaffolder-react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { gpuApiRef } from '../api/GpuApi';
import { plannerBackedGpuApi } from '../__testUtils__/plannerBackedGpuApi';
import { scaffolderModuleGpuPage } from './scaffolderPage';

/** The lazily loaded page renders in more than findBy's default second on a loaded two-core machine. */
const LOADED = { timeout: 15_000 };

// One step: a GPU field, and a nested box whose value the step refuses.
const template = {
  title: 'GPU workload',
  steps: [
    {
      title: 'GPU',
      schema: {
        type: 'object',
        properties: {
          cluster: {
            title: 'Cluster',
            type: 'string',
            'ui:field': 'GpuClusterPicker',
          },
          workload: {
            title: 'Workload',
            type: 'object',
            properties: {
              name: {
                title: 'Name',
                type: 'string',
                pattern: '^[a-z]+$',
                default: 'Chat!',
              },
            },
          },
        },
      },
    },
  ],
};

const scaffolderApi: Partial<ScaffolderApi> = {
  getTemplateParameterSchema: async () => template,
};

function renderTemplatePage() {
  return renderTestApp({
    // The module replaces a page of the scaffolder plugin, so the plugin is installed too.
    features: [scaffolderPlugin, scaffolderModuleGpuPage],
    apis: [
      [scaffolderApiRef, scaffolderApi as ScaffolderApi],
      [gpuApiRef, plannerBackedGpuApi().api],
      catalogApiMock(),
    ],
    initialRouteEntries: ['/create/templates/default/gpu-workload'],
  });
}

describe('scaffolderModuleGpuPage', () => {
  it("mounts the scaffolder's form at /create with the GPU fields", async () => {
    renderTemplatePage();
    expect(
      await screen.findByLabelText(/^Cluster/, {}, LOADED),
    ).toHaveTextContent('dev — AWS (Karpenter), us-east-1');
  });

  it("lists a step's refusals by the box's own title (StepRefusalList, not Backstage's 'Workload Name')", async () => {
    renderTemplatePage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Review' }, LOADED),
    );
    const refusals = await screen.findByText(/^'Name' /, {}, LOADED);
    expect(refusals).toHaveTextContent(`'Name' must match pattern "^[a-z]+$"`);
    expect(
      within(refusals.closest('ul')!).queryByText(/Workload Name/),
    ).not.toBeInTheDocument();
  });
});
