import { EntityProvider } from '@backstage/plugin-catalog-react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, within } from '@testing-library/react';
import { gpuApiRef } from '../../api/GpuApi';
import { fakeGpuApi } from '../../__testUtils__/fakeGpuApi';
import { chatEntity } from '../../__testUtils__/fixtures';
import { GpuAllocationCard } from '../GpuAllocationCard';

describe('the allocation card shows open GPU pull requests of its entity', () => {
  it('lists them, linked to their review page, under a component without GPUs yet', async () => {
    const listPullRequests = jest.fn(async () => ({
      forge: 'local' as const,
      reviewInApp: true,
      pullRequests: [
        {
          branch: 'gpu/ml-chat',
          baseBranch: 'main',
          title: 'GPU: ml/chat',
          body: '',
          url: 'http://localhost:3000/gpu/pull-requests/ml-chat',
          head: 'a'.repeat(40),
          mergeable: { clean: true as const },
        },
      ],
    }));
    await renderInTestApp(
      <TestApiProvider
        apis={[
          [
            gpuApiRef,
            fakeGpuApi({
              getAllocation: async () => ({
                entityRef: 'component:default/chat',
                allocations: [],
                totals: { physicalGpus: 0, usdPerMonth: 0 },
              }),
              getWorkloads: async () => ({ workloads: [], kinds: [] }),
              listPullRequests,
            }),
          ],
        ]}
      >
        <EntityProvider entity={chatEntity}>
          <GpuAllocationCard />
        </EntityProvider>
      </TestApiProvider>,
    );
    const list = within(
      await screen.findByRole('list', { name: 'Open GPU pull requests' }),
    );
    expect(list.getByRole('link', { name: 'GPU: ml/chat' })).toHaveAttribute(
      'href',
      '/gpu/pull-requests/ml-chat',
    );
    expect(listPullRequests).toHaveBeenCalledWith({
      entityRef: 'component:default/chat',
    });
  });

  it('links to every GPU pull request, also when the component has none open', async () => {
    await renderInTestApp(
      <TestApiProvider
        apis={[
          [
            gpuApiRef,
            fakeGpuApi({
              getAllocation: async () => ({
                entityRef: 'component:default/chat',
                allocations: [],
                totals: { physicalGpus: 0, usdPerMonth: 0 },
              }),
              getWorkloads: async () => ({ workloads: [], kinds: [] }),
              listPullRequests: async () => ({
                forge: 'local' as const,
                reviewInApp: true,
                pullRequests: [],
              }),
            }),
          ],
        ]}
      >
        <EntityProvider entity={chatEntity}>
          <GpuAllocationCard />
        </EntityProvider>
      </TestApiProvider>,
    );
    expect(
      await screen.findByRole('link', { name: 'All GPU pull requests' }),
    ).toHaveAttribute('href', '/gpu/pull-requests');
    expect(
      screen.queryByRole('list', { name: 'Open GPU pull requests' }),
    ).toBeNull();
  });
});
