import {
  ApiBlueprint,
  createFrontendPlugin,
  createRouteRef,
  PageBlueprint,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { SvgIcon } from '@material-ui/core';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { GPU_PULL_REQUESTS_PATH } from '@gpu-gitops/plugin-gpu-common';
import { gpuApiRef } from '../api/GpuApi';
import { GpuClient } from '../api/GpuClient';
import { GPU_OVERVIEW_PATH } from '../components/paths';

/**
 *  The GpuApi for the new frontend system.
 *
 * @alpha
 */
export const gpuApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: gpuApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new GpuClient({ discoveryApi, fetchApi }),
    }),
});

/**
 *  Overview card on component pages: the component's GPU requests.
 *
 * @alpha
 */
export const gpuAllocationEntityCard = EntityCardBlueprint.make({
  name: 'allocation',
  params: {
    filter: { kind: 'component' },
    loader: () =>
      import('../components/GpuAllocationCard').then(m => (
        <m.GpuAllocationCard />
      )),
  },
});

/**
 *  "GPU" tab on component pages: allocation and the pools with their MIG layout.
 *
 * @alpha
 */
export const gpuEntityContent = EntityContentBlueprint.make({
  name: 'gpu',
  params: {
    path: GPU_OVERVIEW_PATH,
    title: 'GPU',
    group: 'deployment',
    filter: { kind: 'component' },
    loader: () =>
      import('../components/GpuPoolsContent').then(m => <m.GpuPoolsContent />),
  },
});

/**
 * The review page's route: with its title and icon, what puts it in the
 * app's sidebar beside the GPU page.
 */
const gpuPullRequestsPageRouteRef = createRouteRef();

/**
 * Review of the GPU pull requests of the local forge, at `/gpu/pull-requests`
 * (GPU_PULL_REQUESTS_PATH, where the scaffolder's "Pull request" links lead),
 * in the sidebar as "GPU PRs" (a longer name is cut at the sidebar's width).
 *
 * @alpha
 */
export const gpuPullRequestsPage = PageBlueprint.make({
  name: 'pull-requests',
  params: {
    path: GPU_PULL_REQUESTS_PATH,
    title: 'GPU PRs',
    // Material's "call_merge" icon, drawn here: the plugin has no icon package.
    icon: (
      <SvgIcon>
        <path d="M17 20.41 18.41 19 15 15.59 13.59 17 17 20.41zM7.5 8H11v5.59L5.59 19 7 20.41l6-6V8h3.5L12 3.5 7.5 8z" />
      </SvgIcon>
    ),
    routeRef: gpuPullRequestsPageRouteRef,
    loader: () =>
      import('../components/PullRequestPage').then(m => <m.PullRequestPage />),
  },
});

/**
 * The GPU page's route (the new system's own ref; the legacy plugin mounts
 * `GpuOverviewPage` on its own `gpuOverviewRouteRef`): a page with a route
 * ref, a title and an icon is what the app's sidebar lists.
 *
 * @alpha
 */
export const gpuOverviewPageRouteRef = createRouteRef();

/**
 * The GPU page at `/gpu`, in the sidebar: every pool of every cluster and
 * each team's attributed cost, quota use and idle share.
 *
 * @alpha
 */
export const gpuOverviewPage = PageBlueprint.make({
  name: 'overview',
  params: {
    path: GPU_OVERVIEW_PATH,
    title: 'GPU',
    // Material's "memory" (a chip) icon, drawn here: the plugin has no icon package.
    icon: (
      <SvgIcon>
        <path d="M15 9H9v6h6V9zm-2 4h-2v-2h2v2zm8-2V9h-2V7c0-1.1-.9-2-2-2h-2V3h-2v2h-2V3H9v2H7c-1.1 0-2 .9-2 2v2H3v2h2v2H3v2h2v2c0 1.1.9 2 2 2h2v2h2v-2h2v2h2v-2h2c1.1 0 2-.9 2-2v-2h2v-2h-2v-2h2zm-4 6H7V7h10v10z" />
      </SvgIcon>
    ),
    routeRef: gpuOverviewPageRouteRef,
    loader: () =>
      import('../components/GpuOverviewPage').then(m => <m.GpuOverview />),
  },
});

/**
 *  The GPU plugin for the new frontend system.
 *
 * @alpha
 */
export const gpuPlugin = createFrontendPlugin({
  pluginId: 'gpu',
  extensions: [
    gpuApi,
    gpuAllocationEntityCard,
    gpuEntityContent,
    gpuPullRequestsPage,
    gpuOverviewPage,
  ],
  routes: { overview: gpuOverviewPageRouteRef },
});
