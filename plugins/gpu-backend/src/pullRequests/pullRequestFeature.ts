/**
 * Wires the pull-request API into the gpu backend: the review of the
 * repository's request branches (its own bare cache beside the index's),
 * the forge for links of GitHub, GitLab and Gitea, the permissions the
 * policy decides on, and the index refresh a merge triggers.
 */
import type {
  HttpAuthService,
  LoggerService,
  PermissionsRegistryService,
  PermissionsService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { ScmIntegrationRegistry } from '@backstage/integration';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { gpuPermissions } from '@gpu-gitops/plugin-gpu-common';
import {
  createForge,
  forgeApiBaseUrl,
  LocalPullRequests,
} from '@gpu-gitops/plugin-gpu-node';
import type { GpuBackendConfig } from '../config/readGpuBackendConfig';
import { integrationCredentials } from '../repoIndex/integrationCredentials';
import { OpenPullRequests } from './openPullRequests';
import { createPullRequestRouter } from './pullRequestRoutes';

export async function createPullRequestRoutes(options: {
  config: RootConfigService;
  settings: GpuBackendConfig;
  integrations: ScmIntegrationRegistry;
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  permissionsRegistry: PermissionsRegistryService;
  catalog: CatalogService;
  logger: LoggerService;
  scheduler: SchedulerService;
  /** The scheduled task that refreshes the allocation index. */
  indexRefreshTaskId: string;
}) {
  const { config, settings, integrations, logger, scheduler } = options;
  options.permissionsRegistry.addPermissions(gpuPermissions);
  const gitops = settings.gitops;
  let review: LocalPullRequests | undefined;
  let open: OpenPullRequests | undefined;
  if (gitops) {
    const credentials = integrationCredentials({
      repoUrl: gitops.repoUrl,
      forge: gitops.forge,
      integrations,
    });
    review = new LocalPullRequests({
      repoUrl: gitops.repoUrl,
      baseBranch: gitops.baseBranch,
      // Its own cache: never the index's, the updater's or a publisher's.
      cacheDir: gitops.cacheDirs.review,
      auth: credentials,
      timeoutMs: gitops.timeoutMs,
      committer: gitops.author,
    });
    open = new OpenPullRequests({
      forgeKind: gitops.forge,
      review,
      repoUrl: gitops.repoUrl,
      // Without app.baseUrl the links are app-relative.
      appBaseUrl: config.getOptionalString('app.baseUrl') ?? '',
      forge: async () =>
        createForge(gitops.forge, {
          token: (await credentials()).token,
          apiBaseUrl: forgeApiBaseUrl(
            gitops.repoUrl,
            gitops.forge,
            integrations,
          ),
          timeoutMs: gitops.timeoutMs,
        }),
    });
  }
  return createPullRequestRouter({
    httpAuth: options.httpAuth,
    permissions: options.permissions,
    catalog: options.catalog,
    logger,
    forgeKind: gitops?.forge ?? 'local',
    review,
    open,
    onMerged: async () => {
      try {
        await scheduler.triggerTask(options.indexRefreshTaskId);
      } catch (error) {
        // The scheduled refresh picks the merge up anyway.
        logger.warn(
          `could not refresh the GPU allocation index after a merge: ${(error as Error).message}`,
        );
      }
    },
  });
}
