/**
 * Which expired requests already have their release pull request, in the
 * plugin's database (migrations/…_expiry_releases.js). A replica claims a
 * request before it opens the release: the primary key lets one claim win,
 * so replicas sharing the database open one pull request, and the row stays
 * so a restart (or a release the team closed unmerged) never reopens it.
 */
import {
  isDatabaseConflictError,
  type DatabaseService,
} from '@backstage/backend-plugin-api';
import type { Knex } from 'knex';
import { migratedPluginDatabase } from '../database/migratedPluginDatabase';

const TABLE = 'gpu_expiry_releases';

/** A claim left `opening` this long (its replica died mid-way) may be taken again. */
export const STALE_CLAIM_MS = 30 * 60_000;

export interface ExpiryReleaseKey {
  /** `<namespace>/<name>`. */
  requestId: string;
  /** The request's `spec.expiresAt`: a new date is a new release. */
  expiresAt: string;
}

export class ExpiryReleaseStore {
  static async create(database: DatabaseService): Promise<ExpiryReleaseStore> {
    return new ExpiryReleaseStore(await migratedPluginDatabase(database));
  }

  private constructor(private readonly knex: Knex) {}

  /** True when this caller may open the release (no one has, or a claim went stale). */
  async claim(key: ExpiryReleaseKey, now: Date): Promise<boolean> {
    const row = {
      request_id: key.requestId,
      expires_at: key.expiresAt,
      state: 'opening',
      claimed_at: now,
    };
    try {
      await this.knex(TABLE).insert(row);
      return true;
    } catch (error) {
      if (!isDatabaseConflictError(error)) throw error;
    }
    const taken = await this.knex(TABLE)
      .where({
        request_id: key.requestId,
        expires_at: key.expiresAt,
        state: 'opening',
      })
      .andWhere('claimed_at', '<', new Date(now.getTime() - STALE_CLAIM_MS))
      .update({ claimed_at: now });
    return taken === 1;
  }

  async markOpened(key: ExpiryReleaseKey, pullRequestUrl: string) {
    await this.knex(TABLE)
      .where({ request_id: key.requestId, expires_at: key.expiresAt })
      .update({ state: 'opened', pull_request_url: pullRequestUrl });
  }

  /** Gives a claim up (opening failed), so a later run tries again. */
  async forget(key: ExpiryReleaseKey) {
    await this.knex(TABLE)
      .where({
        request_id: key.requestId,
        expires_at: key.expiresAt,
        state: 'opening',
      })
      .delete();
  }

  async opened(key: ExpiryReleaseKey): Promise<string | undefined> {
    const row = await this.knex(TABLE)
      .where({
        request_id: key.requestId,
        expires_at: key.expiresAt,
        state: 'opened',
      })
      .first();
    return row?.pull_request_url ?? undefined;
  }
}
