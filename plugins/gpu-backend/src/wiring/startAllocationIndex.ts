import path from 'node:path';
import type {
  LoggerService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { ScmIntegrations } from '@backstage/integration';
import type { GpuBackendConfig } from '../config/readGpuBackendConfig';
import type { Readiness } from '../health/Readiness';
import { GitFetchSource } from '../repoIndex/gitSnapshot';
import { integrationCredentials } from '../repoIndex/integrationCredentials';
import { emptySnapshot, type IndexSnapshot } from '../repoIndex/indexSnapshot';
import { RepoIndex } from '../repoIndex/RepoIndex';
import { scheduleRefresh } from './scheduleRefresh';

/**
 *  Id of the scheduled task that refreshes the allocation index.
 *
 * @public
 */
export const INDEX_REFRESH_TASK_ID = 'gpu-allocation-index-refresh';

export interface AllocationIndexHandle {
  snapshot: () => IndexSnapshot;
  /** Fetches and re-reads the repository; false when it failed (logged). Absent without `gpu.gitops`. */
  refreshIndex?: () => Promise<boolean>;
  /** Each snapshot a refresh lands (`RepoIndex.onSnapshot`). Absent without `gpu.gitops`. */
  onSnapshot?: RepoIndex['onSnapshot'];
}

/**
 * The allocation index of `gpu.gitops` (empty without one), refreshed on
 * `gpu.index.refresh`.
 */
export async function startAllocationIndex({
  settings,
  integrations,
  readiness,
  scheduler,
  logger,
}: {
  settings: GpuBackendConfig;
  integrations: ScmIntegrations;
  readiness: Readiness;
  scheduler: SchedulerService;
  logger: LoggerService;
}): Promise<AllocationIndexHandle> {
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
  const refreshIndex = () => refreshLogged(index, readiness, logger);
  // Local scope: every backend instance keeps its own in-memory index.
  // refreshIndex logs its own failures (the HTTP refresh calls it too).
  await scheduleRefresh(scheduler, {
    id: INDEX_REFRESH_TASK_ID,
    scope: 'local',
    frequency: settings.refresh,
    timeout: { minutes: 5 },
    run: refreshIndex,
  });
  return {
    snapshot: () => index.snapshot(),
    refreshIndex,
    onSnapshot: listener => index.onSnapshot(listener),
  };
}

/** One refresh of the index: ready once it has succeeded, logged, false when it failed. */
async function refreshLogged(
  index: RepoIndex,
  readiness: Readiness,
  logger: LoggerService,
): Promise<boolean> {
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
}
