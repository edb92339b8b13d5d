import { createRouteRef } from '@backstage/core-plugin-api';

/** The GPU tab of an entity page (legacy system; the new system uses the tab's path). */
export const gpuEntityContentRouteRef = createRouteRef({
  id: 'gpu:entity-content',
});

/** The review page of GPU pull requests (`/gpu/pull-requests` in the app). */
export const gpuPullRequestsRouteRef = createRouteRef({
  id: 'gpu:pull-requests',
});

/** The GPU page: every pool of every cluster and each team's cost (`/gpu` in the app). */
export const gpuOverviewRouteRef = createRouteRef({
  id: 'gpu:overview',
});
