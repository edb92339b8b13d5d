/**
 * The gpu backend releases expired requests: once a stored request's
 * `spec.expiresAt` has passed, it opens the request's release pull request
 * (gpu-node `publishGpuRelease`), once. A global scheduled task runs it on
 * one replica at a time, and the expiry-release store in the plugin's
 * database makes "once" hold across restarts and replicas too (a task run
 * cut short, or two schedulers on two databases' worth of clocks, still
 * claims before it opens).
 */
import type {
  DatabaseService,
  LoggerService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { ScmIntegrationRegistry } from '@backstage/integration';
import { isExpired } from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRelease } from '@gpu-gitops/plugin-gpu-node';
import { clusterLookup } from '../config/clusterLookup';
import { gitopsPublishTarget } from '../config/gitopsPublishTarget';
import type { GpuBackendConfig } from '../config/readGpuBackendConfig';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import { scheduleRefresh } from '../wiring/scheduleRefresh';
import {
  ExpiryReleaseStore,
  type ExpiryReleaseKey,
} from './expiryReleaseStore';
import {
  openExpiryReleases,
  type ExpiryReleaseRun,
} from './openExpiryReleases';

/** Id of the scheduled task that opens the release pull requests of expired requests. */
export const EXPIRY_RELEASE_TASK_ID = 'gpu-expiry-releases';

/** The stored requests whose expiry has passed at `now`, in id order. */
export function expiredRequests(
  snapshot: IndexSnapshot,
  now: Date,
): ExpiryReleaseKey[] {
  return [...snapshot.requests.entries()]
    .filter(([, stored]) => isExpired(stored.request, now))
    .map(([requestId, stored]) => ({
      requestId,
      expiresAt: stored.request.spec.expiresAt!,
    }))
    .sort((a, b) => (a.requestId < b.requestId ? -1 : 1));
}

export interface ExpiryReleaseTask {
  /** One run: what a scheduled invocation does (tests call it directly); stops between releases once `signal` aborts. */
  run(signal?: AbortSignal): Promise<ExpiryReleaseRun>;
}

export async function scheduleExpiryReleases(options: {
  settings: GpuBackendConfig;
  scheduler: SchedulerService;
  logger: LoggerService;
  integrations: ScmIntegrationRegistry;
  database: DatabaseService;
  /** The allocation index's current snapshot (its stored requests). */
  snapshot: () => IndexSnapshot;
  /** The clock (injected in tests). */
  now?: () => Date;
}): Promise<ExpiryReleaseTask | undefined> {
  const { settings, scheduler, logger, integrations } = options;
  const gitops = settings.gitops;
  if (!gitops) return undefined;
  const now = options.now ?? (() => new Date());
  const store = await ExpiryReleaseStore.create(options.database);
  const target = gitopsPublishTarget({
    gitops,
    integrations,
    logger,
    // Its own clone: never the index's, never another publisher's.
    cacheDir: gitops.cacheDirs.releases,
  });
  const clusterProfile = clusterLookup(settings);
  const openRelease = async ({ requestId, expiresAt }: ExpiryReleaseKey) => {
    const [namespace, name] = requestId.split('/');
    const result = await publishGpuRelease({
      ...(await target()),
      request: { namespace, name },
      clusterProfile,
      catalog: settings.catalog,
      policy: settings.policy,
      reason: `${requestId} expired at ${expiresAt} (spec.expiresAt): the gpu backend opened this release.`,
    });
    return result.url ?? result.branch;
  };
  const task: ExpiryReleaseTask = {
    run: async signal => {
      const at = now();
      return openExpiryReleases({
        store,
        expired: expiredRequests(options.snapshot(), at),
        openRelease,
        now: at,
        logger,
        signal,
      });
    },
  };
  await scheduleRefresh(scheduler, {
    id: EXPIRY_RELEASE_TASK_ID,
    scope: 'global',
    frequency: settings.refresh,
    timeout: { minutes: 30 },
    run: task.run,
    failureWarning: { logger, failed: 'Releasing expired GPU requests' },
  });
  return task;
}
