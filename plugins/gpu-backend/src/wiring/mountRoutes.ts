import type { ScmIntegrations } from '@backstage/integration';
import { registerGpuActions } from '../agentActions/registerGpuActions';
import { AllocationQueries } from '../allocation/AllocationQueries';
import type { GpuBackendConfig } from '../config/readGpuBackendConfig';
import type { Readiness } from '../health/Readiness';
import { preparePoolsPages } from '../http/poolsPagePreparation';
import { createRouter } from '../http/router';
import { createPullRequestRoutes } from '../pullRequests/pullRequestFeature';
import type { GpuPluginServices } from './gpuPluginServices';
import type { AllocationIndexHandle } from './startAllocationIndex';
import type { startLiveData } from './startLiveData';

/**
 * What the plugin serves and offers: /api/gpu (allocation, pools, plan,
 * health), the review of its pull requests, and the actions for AI assistants.
 */
export async function mountRoutes(
  services: GpuPluginServices,
  {
    settings,
    integrations,
    readiness,
    index,
    liveData: { live, drift },
  }: {
    settings: GpuBackendConfig;
    integrations: ScmIntegrations;
    readiness: Readiness;
    index: AllocationIndexHandle;
    liveData: Awaited<ReturnType<typeof startLiveData>>;
  },
): Promise<void> {
  const { httpRouter, httpAuth, auth, catalog, permissions } = services;
  // What planning reads: the API's POST /plan and the agents' actions alike.
  const planning = {
    snapshot: () => index.snapshot(),
    gpuCatalog: settings.catalog,
    clusters: settings.clusters,
    defaultCluster: settings.defaultCluster,
    policy: settings.policy,
  };
  const queries = new AllocationQueries(settings.catalog);
  // The GPU page's summaries computed after each refresh, not by its first viewer.
  if (index.onSnapshot) {
    preparePoolsPages({
      queries,
      snapshot: planning.snapshot,
      onSnapshot: index.onSnapshot,
      logger: services.logger,
    });
  }
  httpRouter.use(
    await createRouter({
      httpAuth,
      auth,
      catalog,
      queries,
      ...planning,
      readiness,
      ...(live ? { live } : {}),
      ...(drift ? { drift } : {}),
    }),
  );
  // Review of the open GPU pull requests (pullRequests/pullRequestRoutes.ts).
  httpRouter.use(
    await createPullRequestRoutes({
      config: services.config,
      settings,
      integrations,
      httpAuth,
      permissions,
      permissionsRegistry: services.permissionsRegistry,
      catalog,
      logger: services.logger,
      refreshIndex: index.refreshIndex,
    }),
  );
  // The actions a person uses, for AI assistants (agentActions/).
  registerGpuActions({
    registry: services.actionsRegistry,
    scaffolder: services.scaffolder,
    permissions,
    planning,
  });
  httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
}
