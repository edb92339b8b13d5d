import type { LoggerService } from '@backstage/backend-plugin-api';

/**
 *  A check that has not succeeded yet, as `GET /health` names it.
 *
 * @public
 */
export interface NotReady {
  check: string;
  reason: string;
}

interface PendingCheck {
  reason: string;
  /** Tried on every readiness question until it succeeds; none: waits for `markReady`. */
  probe?: () => Promise<void>;
  /** The last probe failure logged, so a polling probe logs each new failure once. */
  lastError?: string;
}

/**
 * What this replica needs to have done once before it serves: the checks
 * that have not succeeded yet. A check that succeeded stays ready (a later
 * index refresh that fails keeps serving the last good snapshot).
 *
 * Why: with several replicas starting at once on an empty PostgreSQL,
 * Backstage's migrations race and one replica can come up without a working
 * catalog; its `/health` must say so (503) rather than 200, so the load
 * balancer keeps traffic away from it.
 *
 * @public
 */
export class Readiness {
  private readonly pending = new Map<string, PendingCheck>();

  constructor(private readonly logger?: LoggerService) {}

  /** A check that is ready once `markReady(check)` is called. */
  awaits(check: string, reason: string): void {
    this.pending.set(check, { reason });
  }

  /** A check that `probe` decides, tried on each readiness question until it succeeds once. */
  probes(check: string, reason: string, probe: () => Promise<void>): void {
    this.pending.set(check, { reason, probe });
  }

  markReady(check: string): void {
    this.pending.delete(check);
  }

  /** Runs the pending probes, then names every check still not ready (none: ready). */
  async notReady(): Promise<NotReady[]> {
    await Promise.all(
      [...this.pending].map(async ([check, pending]) => {
        if (!pending.probe) return;
        try {
          await pending.probe();
          this.markReady(check);
        } catch (error) {
          const message = (error as Error).message;
          if (message !== pending.lastError) {
            pending.lastError = message;
            this.logger?.warn(`GPU backend not ready (${check}): ${message}`);
          }
        }
      }),
    );
    return [...this.pending].map(([check, { reason }]) => ({
      check,
      reason,
    }));
  }
}
