import type { Entity } from '@backstage/catalog-model';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, waitFor } from '@testing-library/react';
import { gpuApiRef } from '../../api/GpuApi';
import { fakeGpuApi } from '../../__testUtils__/fakeGpuApi';
import { GpuAllocationCard } from '../GpuAllocationCard';

const recommender: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'recommender-api',
    namespace: 'default',
    annotations: {
      'backstage.io/kubernetes-id': 'recommender-api',
      'backstage.io/kubernetes-namespace': 'ml',
    },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
};

async function requestGpusHref(workloads: unknown[]) {
  const getWorkloads = jest.fn(async () => ({ workloads, kinds: [] }) as any);
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [
          gpuApiRef,
          fakeGpuApi({
            getAllocation: async () => ({
              entityRef: 'component:default/recommender-api',
              allocations: [],
              totals: { physicalGpus: 0, usdPerMonth: 0 },
            }),
            getWorkloads,
            listPullRequests: async () => ({
              forge: 'local',
              reviewInApp: true,
              pullRequests: [],
            }),
          }),
        ],
      ]}
    >
      <EntityProvider entity={recommender}>
        <GpuAllocationCard />
      </EntityProvider>
    </TestApiProvider>,
  );
  const button = await screen.findByText('Request GPUs');
  await waitFor(() =>
    expect(button.closest('a')?.getAttribute('href')).toContain('formData'),
  );
  expect(getWorkloads).toHaveBeenCalledWith({
    name: 'recommender-api',
    namespace: 'ml',
  });
  const href = button.closest('a')!.getAttribute('href')!;
  const url = new URL(href, 'http://app');
  expect(url.pathname).toBe('/create/templates/default/gpu-workload');
  return JSON.parse(url.searchParams.get('formData')!);
}

describe('"Request GPUs" on a component', () => {
  it('prefills name, namespace, owner and the existing workload the repository runs', async () => {
    expect(
      await requestGpusHref([
        {
          kind: 'Deployment',
          name: 'recommender-api',
          namespace: 'ml',
          path: 'apps/ml/recommender-api/deployment.yaml',
          containers: ['api'],
          replicas: 3,
        },
      ]),
    ).toEqual({
      name: 'recommender-api',
      namespace: 'ml',
      owner: 'group:default/ml-platform',
      workloadType: 'existing',
      existingKind: 'Deployment',
      existingName: 'recommender-api',
    });
  });

  it('asks for a new workload when the repository runs none of that name', async () => {
    expect(await requestGpusHref([])).toEqual({
      name: 'recommender-api',
      namespace: 'ml',
      owner: 'group:default/ml-platform',
      workloadType: 'new',
    });
  });
});
