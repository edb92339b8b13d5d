/**
 * The gpu backend keeps the product's open pull requests mergeable and right:
 * whenever the GitOps repository's base branch moves, every open GPU pull
 * request the move touched (its cluster's folders, its own files) is
 * re-rendered from its request on the new base and updated in place, a few
 * at a time (see gpu-node `updateOpenPullRequests`); the others stay as they
 * are. One backend replica runs it at a time: a global scheduled task, and a
 * run claim in the plugin's database held until the run ends (the scheduler's
 * lock expires at the 30-minute timeout; a run then stops between pull
 * requests, and the renders under way finish under the claim).
 */
import type {
  DatabaseService,
  LoggerService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { ScmIntegrationRegistry } from '@backstage/integration';
import { updateOpenPullRequests } from '@gpu-gitops/plugin-gpu-node';
import { clusterLookup } from '../config/clusterLookup';
import { gitopsPublishTarget } from '../config/gitopsPublishTarget';
import type { GpuBackendConfig } from '../config/readGpuBackendConfig';
import { RunClaimStore } from '../wiring/runClaimStore';
import { scheduleRefresh } from '../wiring/scheduleRefresh';

/** Id of the scheduled task that updates open GPU pull requests. */
export const PULL_REQUEST_UPDATE_TASK_ID = 'gpu-pull-request-updates';

export async function schedulePullRequestUpdates(options: {
  settings: GpuBackendConfig;
  scheduler: SchedulerService;
  logger: LoggerService;
  integrations: ScmIntegrationRegistry;
  database: DatabaseService;
}): Promise<void> {
  const { settings, scheduler, logger, integrations } = options;
  const gitops = settings.gitops;
  if (!gitops || !gitops.updatePullRequests) return;
  const claims = await RunClaimStore.create(options.database);
  const target = gitopsPublishTarget({
    gitops,
    integrations,
    logger,
    // Its own clone: never the index's, never a publisher's.
    cacheDir: gitops.cacheDirs.pullRequests,
  });
  const clusterFor = clusterLookup(settings);
  await scheduleRefresh(scheduler, {
    id: PULL_REQUEST_UPDATE_TASK_ID,
    scope: 'global',
    frequency: settings.refresh,
    timeout: { minutes: 30 },
    run: async signal => {
      const claimed = await claims.runClaimed(
        PULL_REQUEST_UPDATE_TASK_ID,
        new Date(),
        async () =>
          updateOpenPullRequests({
            ...(await target()),
            clusterFor,
            catalogFor: () => settings.catalog,
            policy: settings.policy,
            signal,
          }),
      );
      if (!claimed.ran) {
        logger.info(
          'Updating the open GPU pull requests skipped: another replica is running it',
        );
        return;
      }
      for (const update of claimed.result) {
        if (update.outcome === 'updated') {
          logger.info(
            `GPU pull request ${update.branch} (${update.request}) re-rendered on the new base: ${update.url ?? ''}`,
          );
        } else if (
          update.outcome === 'refused' ||
          update.outcome === 'failed'
        ) {
          logger.warn(
            `GPU pull request ${update.branch} was not updated (${update.outcome}): ${update.detail ?? ''}`,
          );
        }
      }
      const stopped = claimed.result.filter(u => u.outcome === 'stopped');
      if (stopped.length > 0) {
        logger.info(
          `Updating the open GPU pull requests stopped (its run was aborted): ${stopped.length} left for the next run`,
        );
      }
    },
    failureWarning: { logger, failed: 'Updating the open GPU pull requests' },
  });
}
