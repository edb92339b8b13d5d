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
  /** Refreshes this replica's allocation index; undefined without a repository. */
  refreshIndex?: () => Promise<boolean>;
}) {
  const { config, settings, integrations, logger } = options;
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
    onMerged: async () =>
      indexedWithin(options.refreshIndex, gitops?.timeoutMs ?? 60_000),
  });
}

/**
 * A merge answers once this replica's index has read it, so the allocation
 * read next shows it; a refresh that fails or takes longer than a fetch may
 * leaves the answer "not indexed yet" (it goes on, and the schedule retries).
 */
async function indexedWithin(
  refreshIndex: (() => Promise<boolean>) | undefined,
  limitMs: number,
): Promise<boolean> {
  if (!refreshIndex) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>(resolve => {
    timer = setTimeout(() => resolve(false), limitMs);
  });
  try {
    return await Promise.race([refreshIndex(), late]);
  } finally {
    clearTimeout(timer);
  }
}
