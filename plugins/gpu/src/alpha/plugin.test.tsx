import {
  createExtensionTester,
  renderTestApp,
} from '@backstage/frontend-test-utils';
import {
  ApiBlueprint,
  coreExtensionData,
} from '@backstage/frontend-plugin-api';
import { createTestEntityPage } from '@backstage/plugin-catalog-react/testUtils';
import { screen } from '@testing-library/react';
import { gpuApiRef } from '../api/GpuApi';
import { GpuClient } from '../api/GpuClient';
import { fakeGpuApi } from '../__testUtils__/fakeGpuApi';
import {
  chatAllocation,
  chatEntity,
  livePools,
  pools,
} from '../__testUtils__/fixtures';
import {
  gpuAllocationEntityCard,
  gpuApi,
  gpuEntityContent,
  gpuOverviewPage,
} from './index';

// The test app loads pages and cards lazily (frontend system 1.0, Backstage 1.57):
// on two shared cores the first render can take seconds, past findBy's 1 s default.
const lazyRender = { timeout: 15_000 };

const api = fakeGpuApi({
  getAllocation: async () => chatAllocation,
  getPools: async () => pools,
});

describe('gpu plugin (new frontend system)', () => {
  it('puts the allocation card on a component page', async () => {
    renderTestApp({
      extensions: [
        createTestEntityPage({ entity: chatEntity }),
        gpuAllocationEntityCard,
      ],
      apis: [[gpuApiRef, api]],
    });
    expect(
      await screen.findByTestId('gpu-allocation-ml/trainer', {}, lazyRender),
    ).toBeInTheDocument();
  });

  it('renders the GPU tab with the pools', async () => {
    renderTestApp({
      extensions: [
        createTestEntityPage({ entity: chatEntity }),
        gpuEntityContent,
      ],
      apis: [[gpuApiRef, api]],
    });
    expect(
      await screen.findByTestId('gpu-pool-gpu-a100-mig', {}, lazyRender),
    ).toBeInTheDocument();
  });

  it('renders the GPU page at /gpu', async () => {
    renderTestApp({
      extensions: [gpuOverviewPage],
      apis: [
        [
          gpuApiRef,
          fakeGpuApi({
            getPools: async () => livePools,
            getQuota: async ({ owner, cluster }) => ({
              owner,
              cluster: cluster!,
              used: 1,
              requested: 0,
            }),
          }),
        ],
      ],
      initialRouteEntries: ['/gpu'],
    });
    expect(
      await screen.findByTestId('gpu-overview-totals', {}, lazyRender),
    ).toHaveTextContent('All pools: $17,000.56 per month');
  });

  // The app's sidebar lists each page with a route ref, a title and an icon.
  it('gives the GPU page what the sidebar lists it by', () => {
    const tester = createExtensionTester(gpuOverviewPage);
    expect(tester.get(coreExtensionData.routePath)).toBe('/gpu');
    expect(tester.get(coreExtensionData.routeRef)).toBeDefined();
    expect(tester.get(coreExtensionData.title)).toBe('GPU');
    expect(tester.get(coreExtensionData.icon)).toBeDefined();
  });

  it('provides a GpuClient built from discovery and fetch', async () => {
    const factory = createExtensionTester(gpuApi).get(
      ApiBlueprint.dataRefs.factory,
    );
    expect(factory.api.id).toBe(gpuApiRef.id);
    const requested: string[] = [];
    const client = factory.factory({
      discoveryApi: {
        getBaseUrl: async (id: string) => `http://127.0.0.1/api/${id}`,
      },
      fetchApi: {
        fetch: async (url: RequestInfo | URL) => {
          requested.push(String(url));
          return new Response('{"pools":[]}', { status: 200 });
        },
      },
    }) as GpuClient;
    expect(client).toBeInstanceOf(GpuClient);
    await expect(client.getPools()).resolves.toEqual({ pools: [] });
    expect(requested).toEqual(['http://127.0.0.1/api/gpu/pools']);
  });
});
