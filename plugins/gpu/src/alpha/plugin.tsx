import {
  ApiBlueprint,
  createFrontendPlugin,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { gpuApiRef } from '../api/GpuApi';
import { GpuClient } from '../api/GpuClient';

/** The GpuApi for the new frontend system. */
export const gpuApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: gpuApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new GpuClient({ discoveryApi, fetchApi }),
    }),
});

/** Overview card on component pages: the component's GPU requests. */
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

/** "GPU" tab on component pages: allocation and the pools with their MIG layout. */
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

/** The GPU plugin for the new frontend system. */
export const gpuPlugin = createFrontendPlugin({
  pluginId: 'gpu',
  extensions: [gpuApi, gpuAllocationEntityCard, gpuEntityContent],
});
