import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { actionsRegistryServiceRef } from '@backstage/backend-plugin-api/alpha';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { scaffolderServiceRef } from '@backstage/plugin-scaffolder-node';
import { initGpuPlugin } from './wiring/initGpuPlugin';

export { INDEX_REFRESH_TASK_ID } from './wiring/startAllocationIndex';
export { LIVE_DATA_REFRESH_TASK_ID } from './wiring/startLiveData';

/**
 * The `gpu` backend plugin: an allocation index of the GitOps repository
 * (refreshed by the Backstage scheduler, `gpu.index.refresh`), the
 * allocation / pools / plan API under /api/gpu, and the scheduled
 * upkeep of its pull requests (updates on a moved base, releases of
 * expired requests). Its start, step by step: `wiring/initGpuPlugin.ts`.
 *
 * @public
 */
export const gpuPlugin = createBackendPlugin({
  pluginId: 'gpu',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        auth: coreServices.auth,
        httpAuth: coreServices.httpAuth,
        httpRouter: coreServices.httpRouter,
        scheduler: coreServices.scheduler,
        database: coreServices.database,
        catalog: catalogServiceRef,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        actionsRegistry: actionsRegistryServiceRef,
        scaffolder: scaffolderServiceRef,
      },
      init: initGpuPlugin,
    });
  },
});
