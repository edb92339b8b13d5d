/**
 * Opens the release pull request of every expired request, once: a request is
 * claimed in the expiry-release store before its release is opened, so
 * replicas sharing the database (and restarts) never open it twice; a
 * failure gives the claim back for the next run and never stops the others.
 * An aborted signal stops the run between releases.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import type {
  ExpiryReleaseKey,
  ExpiryReleaseStore,
} from './expiryReleaseStore';

export interface ExpiryReleaseRun {
  /** Requests whose release this run opened, with the pull request's URL. */
  opened: Array<ExpiryReleaseKey & { pullRequestUrl: string }>;
  /** Requests whose release could not be opened (retried next run). */
  failed: Array<ExpiryReleaseKey & { reason: string }>;
}

export async function openExpiryReleases(options: {
  store: ExpiryReleaseStore;
  /** The requests whose `spec.expiresAt` has passed at `now`. */
  expired: ExpiryReleaseKey[];
  /** Opens (or updates) the request's release pull request; its URL. */
  openRelease: (key: ExpiryReleaseKey) => Promise<string>;
  now: Date;
  logger: LoggerService;
  /** Aborted (the scheduler's timeout): no further release is claimed; the next run opens them. */
  signal?: AbortSignal;
}): Promise<ExpiryReleaseRun> {
  const { store, expired, openRelease, now, logger, signal } = options;
  const run: ExpiryReleaseRun = { opened: [], failed: [] };
  for (const [done, key] of expired.entries()) {
    if (signal?.aborted) {
      logger.info(
        `Releasing expired GPU requests stopped (its run was aborted): ${expired.length - done} left for the next run`,
      );
      break;
    }
    if (!(await store.claim(key, now))) continue;
    try {
      const pullRequestUrl = await openRelease(key);
      await store.markOpened(key, pullRequestUrl);
      run.opened.push({ ...key, pullRequestUrl });
      logger.info(
        `GPU request ${key.requestId} expired at ${key.expiresAt}: release pull request ${pullRequestUrl}`,
      );
    } catch (error) {
      await store.forget(key);
      const reason = error instanceof Error ? error.message : String(error);
      run.failed.push({ ...key, reason });
      logger.warn(
        `GPU request ${key.requestId} expired at ${key.expiresAt}, but its release could not be opened (retried next run): ${reason}`,
      );
    }
  }
  return run;
}
