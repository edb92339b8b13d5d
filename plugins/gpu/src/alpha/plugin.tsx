import {
  ApiBlueprint,
  createFrontendPlugin,
  PageBlueprint,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { GPU_PULL_REQUESTS_PATH } from '@gpu-gitops/plugin-gpu-common';
import { gpuApiRef } from '../api/GpuApi';
import { GpuClient } from '../api/GpuClient';

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
    path: '/gpu',
    title: 'GPU',
    group: 'deployment',
    filter: { kind: 'component' },
    loader: () =>
      import('../components/GpuPoolsContent').then(m => <m.GpuPoolsContent />),
  },
});

/**
 * Review of the GPU pull requests of the local forge, at `/gpu/pull-requests`
 * (GPU_PULL_REQUESTS_PATH, where the scaffolder's "Pull request" links lead).
 *
 * @alpha
 */
export const gpuPullRequestsPage = PageBlueprint.make({
  name: 'pull-requests',
  params: {
    path: GPU_PULL_REQUESTS_PATH,
    title: 'GPU pull requests',
    loader: () =>
      import('../components/PullRequestPage').then(m => <m.PullRequestPage />),
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
  ],
});
