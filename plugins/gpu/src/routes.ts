import { createRouteRef } from '@backstage/core-plugin-api';

/** The GPU tab of an entity page (legacy system; the new system uses the tab's path). */
export const gpuEntityContentRouteRef = createRouteRef({
  id: 'gpu:entity-content',
});
