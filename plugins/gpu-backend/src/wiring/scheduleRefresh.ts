/**
 * How the gpu backend puts its periodic work on the Backstage scheduler:
 * the allocation index's refresh, the live data's, the expiry releases and
 * the pull requests' upkeep. What the scheduler does with each option is
 * @backstage/backend-plugin-api 1.12.0's `SchedulerServiceTaskScheduleDefinition`
 * as @backstage/backend-defaults 0.19.0's workers (`LocalTaskWorker`,
 * `TaskWorker`) carry it out.
 */
import type {
  LoggerService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { HumanDuration } from '../config/readGpuBackendConfig';

export interface RefreshTask {
  /** The task's id: the exported constant of the module that schedules it (tests trigger it by it). */
  id: string;
  /**
   * `local`: what the run refreshes lives in this replica's memory (the
   * index, the live data), so every replica runs it on its own cadence.
   * `global`: the run acts on what the replicas share (the forge's pull
   * requests, the plugin's database), so one replica at a time runs it.
   */
  scope: 'local' | 'global';
  /**
   * How often, from config (`gpu.index.refresh`, `gpu.utilization.refresh`).
   * A run that takes longer delays the next one; runs never overlap on one
   * replica.
   */
  frequency: HumanDuration;
  /**
   * Longer than a run may ever take: a global task's lock expires at it, and
   * another replica may then start the same work while this run goes on
   * (the pull requests' upkeep holds a `RunClaimStore` claim against that).
   * At the timeout the scheduler aborts the run's signal.
   */
  timeout: HumanDuration;
  /**
   * One run. No `initialDelay`: the first starts at once (readiness waits on
   * the index's). `signal` aborts at the timeout: a run stops between its
   * units of work (a pull request, a release), leaving the rest to the next.
   */
  run: (signal: AbortSignal) => Promise<unknown>;
  /**
   * Given: a failed run is a warning `<failed> failed: <message>` and the
   * invocation ends normally. Without it the scheduler keeps the error: a
   * global task's worker logs it at error level, a local task's only records
   * it as the task's last error, logging nothing.
   */
  failureWarning?: { logger: LoggerService; failed: string };
}

/** Schedules one of the gpu backend's periodic tasks (see {@link RefreshTask}). */
export async function scheduleRefresh(
  scheduler: SchedulerService,
  { id, scope, frequency, timeout, run, failureWarning }: RefreshTask,
): Promise<void> {
  await scheduler.scheduleTask({
    id,
    scope,
    frequency,
    timeout,
    fn: async signal => {
      if (!failureWarning) {
        await run(signal);
        return;
      }
      try {
        await run(signal);
      } catch (error) {
        failureWarning.logger.warn(
          `${failureWarning.failed} failed: ${(error as Error).message}`,
        );
      }
    },
  });
}
