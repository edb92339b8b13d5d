import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { gpuApiRef } from './api/GpuApi';
import { GpuClient } from './api/GpuClient';
import {
  gpuEntityContentRouteRef,
  gpuOverviewRouteRef,
  gpuPullRequestsRouteRef,
} from './routes';

/**
 * The plugin for the legacy frontend system (`createApp` from
 * `@backstage/app-defaults`). The new system uses `@gpu-gitops/plugin-gpu/alpha`.
 *
 * @public
 */
export const gpuPlugin = createPlugin({
  id: 'gpu',
  apis: [
    createApiFactory({
      api: gpuApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new GpuClient({ discoveryApi, fetchApi }),
    }),
  ],
  routes: {
    entityContent: gpuEntityContentRouteRef,
    pullRequests: gpuPullRequestsRouteRef,
    overview: gpuOverviewRouteRef,
  },
});

/**
 *  Card for the entity overview: the entity's GPU requests.
 *
 * @public
 */
export const EntityGpuAllocationCard = gpuPlugin.provide(
  createComponentExtension({
    name: 'EntityGpuAllocationCard',
    component: {
      lazy: () =>
        import('./components/GpuAllocationCard').then(m => m.GpuAllocationCard),
    },
  }),
);

/**
 *  Entity tab: the allocation card and the GPU pools (capacity, MIG layout).
 *
 * @public
 */
export const EntityGpuAllocationContent = gpuPlugin.provide(
  createRoutableExtension({
    name: 'EntityGpuAllocationContent',
    component: () =>
      import('./components/GpuPoolsContent').then(m => m.GpuPoolsContent),
    mountPoint: gpuEntityContentRouteRef,
  }),
);

/**
 * Review of the GPU pull requests of the local forge: mount it at
 * `/gpu/pull-requests` (`<Route path="/gpu/pull-requests" element={<GpuPullRequestsPage />} />`),
 * where the scaffolder's "Pull request" links lead.
 *
 * @public
 */
export const GpuPullRequestsPage = gpuPlugin.provide(
  createRoutableExtension({
    name: 'GpuPullRequestsPage',
    component: () =>
      import('./components/PullRequestPage').then(m => m.PullRequestPage),
    mountPoint: gpuPullRequestsRouteRef,
  }),
);

/**
 * The GPU page: every pool of every cluster (capacity, allocated, used, idle
 * GPUs, monthly and idle cost) and each team's attributed cost, quota use
 * and idle share. Mount it at `/gpu`
 * (`<Route path="/gpu" element={<GpuOverviewPage />} />`) with a sidebar item.
 *
 * @public
 */
export const GpuOverviewPage = gpuPlugin.provide(
  createRoutableExtension({
    name: 'GpuOverviewPage',
    component: () =>
      import('./components/GpuOverviewPage').then(m => m.GpuOverview),
    mountPoint: gpuOverviewRouteRef,
  }),
);
