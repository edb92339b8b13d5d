import { EntityProvider } from '@backstage/plugin-catalog-react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeGpuApi } from './__testUtils__/fakeGpuApi';
import { chatAllocation, chatEntity, pools } from './__testUtils__/fixtures';
import {
  EntityGpuAllocationCard,
  EntityGpuAllocationContent,
  gpuApiRef,
  gpuPlugin,
} from './index';

const api = fakeGpuApi({
  getAllocation: async () => chatAllocation,
  getPools: async () => pools,
});

describe('gpu plugin (legacy frontend system)', () => {
  it('is the gpu plugin and provides the GpuApi', () => {
    expect(gpuPlugin.getId()).toBe('gpu');
    expect([...gpuPlugin.getApis()].map(f => f.api.id)).toEqual([gpuApiRef.id]);
  });

  it('renders the card and the tab extensions for an entity', async () => {
    await renderInTestApp(
      <TestApiProvider apis={[[gpuApiRef, api]]}>
        <EntityProvider entity={chatEntity}>
          <EntityGpuAllocationCard />
          <Routes>
            <Route path="/gpu" element={<EntityGpuAllocationContent />} />
          </Routes>
        </EntityProvider>
      </TestApiProvider>,
      { routeEntries: ['/gpu'] },
    );
    expect(
      await screen.findAllByTestId('gpu-allocation-ml/embedder'),
    ).toHaveLength(2);
    expect(
      await screen.findByTestId('gpu-pool-gpu-l4-ts4'),
    ).toBeInTheDocument();
  });
});
