import path from 'node:path';
import {
  coreServices,
  createBackendPlugin,
  type AuthService,
  type LoggerService,
  type RootConfigService,
  type SchedulerService,
} from '@backstage/backend-plugin-api';
import { actionsRegistryServiceRef } from '@backstage/backend-plugin-api/alpha';
import { ScmIntegrations } from '@backstage/integration';
import {
  catalogServiceRef,
  type CatalogService,
} from '@backstage/plugin-catalog-node';
import { scaffolderServiceRef } from '@backstage/plugin-scaffolder-node';
import { registerGpuActions } from './agentActions/registerGpuActions';
import { AllocationQueries } from './allocation/AllocationQueries';
import {
  readGpuBackendConfig,
  type GpuBackendConfig,
} from './config/readGpuBackendConfig';
import { readDriftConfig } from './config/readDriftConfig';
import { readUtilizationConfig } from './config/readUtilizationConfig';
import { Readiness } from './health/Readiness';
import { createRouter } from './http/router';
import { GitFetchSource } from './repoIndex/gitSnapshot';
import { createPullRequestRoutes } from './pullRequests/pullRequestFeature';
import { schedulePullRequestUpdates } from './pullRequests/schedulePullRequestUpdates';
import { scheduleExpiryReleases } from './lifecycle/scheduleExpiryReleases';
import { integrationCredentials } from './repoIndex/integrationCredentials';
import { emptySnapshot, type IndexSnapshot } from './repoIndex/indexSnapshot';
import { RepoIndex } from './repoIndex/RepoIndex';
import { ClusterDrift } from './drift/clusterDrift';
import { LiveData } from './utilization/liveData';

/**
 *  Id of the scheduled task that refreshes the allocation index.
 *
 * @public
 */
export const INDEX_REFRESH_TASK_ID = 'gpu-allocation-index-refresh';

/**
 *  Id of the scheduled task that reads live data from each cluster's Prometheus and Kubernetes API.
 *
 * @public
 */
export const LIVE_DATA_REFRESH_TASK_ID = 'gpu-live-data-refresh';

/**
 * The `gpu` backend plugin: an allocation index of the GitOps repository
 * (refreshed by the Backstage scheduler, `gpu.index.refresh`), the
 * allocation / pools / plan API under /api/gpu, and the scheduled
 * upkeep of its pull requests (updates on a moved base, releases of
 * expired requests).
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
      async init({
        config,
        logger,
        auth,
        httpAuth,
        httpRouter,
        scheduler,
        database,
        catalog,
        permissions,
        permissionsRegistry,
        actionsRegistry,
        scaffolder,
      }) {
        const settings = readGpuBackendConfig(config);
        const integrations = ScmIntegrations.fromConfig(config);
        // /health answers 503 until the catalog has answered once (on this
        // replica: internal discovery reaches its own catalog) and, with a
        // repository, until the index has been built once.
        const readiness = new Readiness(logger);
        probeCatalog(readiness, catalog, auth);
        const { snapshot, refreshIndex } = await startAllocationIndex({
          settings,
          integrations,
          readiness,
          scheduler,
          logger,
        });
        // Expired requests get their release pull request, once (one replica
        // at a time, claimed in the plugin's database).
        await scheduleExpiryReleases({
          settings,
          scheduler,
          logger,
          integrations,
          database,
          snapshot: () => snapshot(),
        });
        // Open GPU pull requests follow their base (one replica at a time).
        await schedulePullRequestUpdates({
          settings,
          scheduler,
          logger,
          integrations,
        });
        const { live, drift } = await startLiveData({
          config,
          settings,
          scheduler,
          logger,
        });
        // What planning reads: the API's POST /plan and the agents' actions alike.
        const planning = {
          snapshot: () => snapshot(),
          gpuCatalog: settings.catalog,
          clusters: settings.clusters,
          defaultCluster: settings.defaultCluster,
          policy: settings.policy,
        };
        httpRouter.use(
          await createRouter({
            httpAuth,
            auth,
            catalog,
            queries: new AllocationQueries(settings.catalog),
            ...planning,
            readiness,
            ...(live ? { live } : {}),
            ...(drift ? { drift } : {}),
          }),
        );
        // Review of the open GPU pull requests (pullRequests/pullRequestRoutes.ts).
        httpRouter.use(
          await createPullRequestRoutes({
            config,
            settings,
            integrations,
            httpAuth,
            permissions,
            permissionsRegistry,
            catalog,
            logger,
            refreshIndex,
          }),
        );
        // The actions a person uses, for AI assistants (agentActions/).
        registerGpuActions({
          registry: actionsRegistry,
          scaffolder,
          permissions,
          planning,
        });
        httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
      },
    });
  },
});

interface StartOptions {
  settings: GpuBackendConfig;
  scheduler: SchedulerService;
  logger: LoggerService;
}

function probeCatalog(
  readiness: Readiness,
  catalog: CatalogService,
  auth: AuthService,
): void {
  readiness.probes(
    'catalog',
    'the catalog has not answered yet (see the backend log)',
    async () => {
      await catalog.getEntities(
        { limit: 1, fields: ['kind'] },
        { credentials: await auth.getOwnServiceCredentials() },
      );
    },
  );
}

/**
 * The allocation index of `gpu.gitops` (empty without one), refreshed on
 * `gpu.index.refresh`; `refreshIndex` fetches and re-reads the repository,
 * false when it failed (logged).
 */
async function startAllocationIndex({
  settings,
  integrations,
  readiness,
  scheduler,
  logger,
}: StartOptions & {
  integrations: ScmIntegrations;
  readiness: Readiness;
}): Promise<{
  snapshot: () => IndexSnapshot;
  refreshIndex?: () => Promise<boolean>;
}> {
  const gitops = settings.gitops;
  if (!gitops) {
    logger.warn(
      'gpu.gitops is not configured: the GPU allocation index stays empty',
    );
    return { snapshot: emptySnapshot };
  }
  readiness.awaits(
    'index',
    'the GitOps repository has not been indexed yet (see the backend log)',
  );
  const source = new GitFetchSource({
    repoUrl: gitops.repoUrl,
    baseBranch: gitops.baseBranch,
    cacheDir: gitops.cacheDirs.index,
    timeoutMs: gitops.timeoutMs,
    credentials: integrationCredentials({
      repoUrl: gitops.repoUrl,
      forge: gitops.forge,
      integrations,
    }),
  });
  const index = new RepoIndex(
    {
      clusters: settings.clusters,
      defaultCluster: settings.defaultCluster,
      catalog: settings.catalog,
      // A restart re-reads only what changed while it was down.
      stateFile: path.join(source.gitDir, 'gpu-backend-index.json'),
    },
    source,
  );
  const refreshIndex = async () => {
    try {
      const result = await index.refresh();
      readiness.markReady('index');
      if (result.parsedPaths.length > 0 || result.full) {
        logger.info(
          `GPU allocation index at ${result.revision.slice(0, 12)}: ` +
            `${result.changedPaths.length} changed files, ${result.parsedPaths.length} parsed`,
        );
      }
      return true;
    } catch (error) {
      // Keep serving the last good snapshot; the next run retries.
      logger.warn(
        `GPU allocation index refresh failed: ${(error as Error).message}`,
      );
      return false;
    }
  };
  // Local scope: every backend instance keeps its own in-memory index.
  await scheduler.scheduleTask({
    id: INDEX_REFRESH_TASK_ID,
    scope: 'local',
    frequency: settings.refresh,
    timeout: { minutes: 5 },
    fn: async () => {
      await refreshIndex();
    },
  });
  return { snapshot: () => index.snapshot(), refreshIndex };
}

/**
 * Live data (gpu.utilization): every replica asks each cluster's Prometheus
 * the same fixed queries, and reads its Kubernetes API for drift with the
 * same fixed calls, on its own schedule.
 */
async function startLiveData({
  config,
  settings,
  scheduler,
  logger,
}: StartOptions & { config: RootConfigService }) {
  const clusterNames = settings.clusters.map(c => c.name);
  const utilization = readUtilizationConfig(config, clusterNames);
  const live = utilization && new LiveData(utilization);
  const driftConfig = readDriftConfig(config, clusterNames);
  const drift =
    driftConfig &&
    new ClusterDrift(driftConfig.targets, {
      profiles: settings.clusters,
      graceMs: driftConfig.pendingGraceMs,
    });
  if (utilization && live) {
    await scheduler.scheduleTask({
      id: LIVE_DATA_REFRESH_TASK_ID,
      scope: 'local',
      frequency: utilization.refresh,
      timeout: { minutes: 2 },
      fn: async () => {
        const statuses = await Promise.all([
          live.refresh(),
          drift?.refresh() ?? [],
        ]);
        for (const status of statuses.flat()) {
          if (!status.available) {
            logger.warn(
              `no live data from ${status.cluster} (${status.source}): ${status.reason}`,
            );
          }
        }
      },
    });
  }
  return { live, drift };
}
