/**
 * One run of a global task at a time across the replicas sharing the plugin's
 * database (migrations/…_run_claims.js), as the expiry releases claim each
 * request (`lifecycle/expiryReleaseStore.ts`). The scheduler's own lock
 * (@backstage/backend-defaults 0.19.0 `TaskWorker`) expires at the task's
 * timeout and another replica may then start the same task while the first
 * run still finishes its unit of work; this claim is held until the run ends.
 */
import { randomUUID } from 'node:crypto';
import {
  isDatabaseConflictError,
  type DatabaseService,
} from '@backstage/backend-plugin-api';
import type { Knex } from 'knex';
import { migratedPluginDatabase } from '../database/migratedPluginDatabase';

const TABLE = 'gpu_run_claims';

/**
 * A claim this old (its replica died mid-run) may be taken over: longer than
 * a global task's 30-minute timeout, after which its run stops at the end of
 * the unit of work under way.
 */
export const STALE_RUN_CLAIM_MS = 45 * 60_000;

export interface RunClaim {
  /** Gives the claim up; a no-op when another run took it over (stale). */
  release(): Promise<void>;
}

export type ClaimedRun<T> = { ran: true; result: T } | { ran: false };

export class RunClaimStore {
  static async create(database: DatabaseService): Promise<RunClaimStore> {
    return new RunClaimStore(await migratedPluginDatabase(database));
  }

  private constructor(private readonly knex: Knex) {}

  /** The claim of the task's run, or undefined when another run holds it. */
  async claim(taskId: string, now: Date): Promise<RunClaim | undefined> {
    const holder = randomUUID();
    const row = { task_id: taskId, holder, claimed_at: now };
    try {
      await this.knex(TABLE).insert(row);
      return this.claimOf(taskId, holder);
    } catch (error) {
      if (!isDatabaseConflictError(error)) throw error;
    }
    const taken = await this.knex(TABLE)
      .where({ task_id: taskId })
      .andWhere('claimed_at', '<', new Date(now.getTime() - STALE_RUN_CLAIM_MS))
      .update({ holder, claimed_at: now });
    return taken === 1 ? this.claimOf(taskId, holder) : undefined;
  }

  /** Runs `work` under the task's claim (released however it ends), or not at all when another run holds it. */
  async runClaimed<T>(
    taskId: string,
    now: Date,
    work: () => Promise<T>,
  ): Promise<ClaimedRun<T>> {
    const claim = await this.claim(taskId, now);
    if (!claim) return { ran: false };
    try {
      return { ran: true, result: await work() };
    } finally {
      await claim.release();
    }
  }

  private claimOf(taskId: string, holder: string): RunClaim {
    return {
      release: async () => {
        await this.knex(TABLE).where({ task_id: taskId, holder }).delete();
      },
    };
  }
}
