import { mockServices } from '@backstage/backend-test-utils';
import { usePostgresServer } from '../__testUtils__/postgresServer';
import {
  ExpiryReleaseStore,
  type ExpiryReleaseKey,
} from './expiryReleaseStore';
import { openExpiryReleases } from './openExpiryReleases';

// Real git publishes for every release: the ceiling catches a hang, not a
// loaded machine (the 30 s default was hit at load 21).
jest.setTimeout(120_000);

const postgres = usePostgresServer();

async function replicaStores(count: number): Promise<ExpiryReleaseStore[]> {
  const connection = await postgres.newDatabase();
  return Promise.all(
    Array.from({ length: count }, async () => {
      const knex = postgres.client(connection);
      return ExpiryReleaseStore.create(mockServices.database({ knex }));
    }),
  );
}

const now = new Date('2026-12-02T09:00:00Z');
const expired: ExpiryReleaseKey[] = ['ml/a', 'ml/b', 'ml/c'].map(requestId => ({
  requestId,
  expiresAt: '2026-12-01T00:00:00.000Z',
}));

describe('openExpiryReleases', () => {
  it('opens each expired release once when two replicas run at the same time, and never again', async () => {
    const [first, second] = await replicaStores(2);
    const opened: string[] = [];
    const openRelease = async (key: ExpiryReleaseKey) => {
      opened.push(key.requestId);
      return `https://git.example/${key.requestId}/release`;
    };
    const logger = mockServices.logger.mock();
    const runs = await Promise.all(
      [first, second].map(store =>
        openExpiryReleases({ store, expired, openRelease, now, logger }),
      ),
    );
    expect(opened.sort()).toEqual(['ml/a', 'ml/b', 'ml/c']);
    expect(
      runs
        .flatMap(run => run.opened)
        .map(o => o.requestId)
        .sort(),
    ).toEqual(['ml/a', 'ml/b', 'ml/c']);
    // The next scheduled run (a day later) finds them opened.
    const next = await openExpiryReleases({
      store: second,
      expired,
      openRelease,
      now: new Date(now.getTime() + 86_400_000),
      logger,
    });
    expect(next).toEqual({ opened: [], failed: [] });
    expect(opened).toHaveLength(3);
  });

  it('retries a release that failed on the next run, and does not stop the others', async () => {
    const [store] = await replicaStores(1);
    let forgeDown = true;
    const openRelease = async (key: ExpiryReleaseKey) => {
      if (forgeDown && key.requestId === 'ml/b') {
        throw new Error('GitHub API: 503 Service Unavailable');
      }
      return `https://git.example/${key.requestId}/release`;
    };
    const logger = mockServices.logger.mock();
    const run = await openExpiryReleases({
      store,
      expired,
      openRelease,
      now,
      logger,
    });
    expect(run.opened.map(o => o.requestId)).toEqual(['ml/a', 'ml/c']);
    expect(run.failed).toEqual([
      {
        requestId: 'ml/b',
        expiresAt: '2026-12-01T00:00:00.000Z',
        reason: 'GitHub API: 503 Service Unavailable',
      },
    ]);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('ml/b expired at 2026-12-01T00:00:00.000Z'),
    );
    forgeDown = false;
    const retry = await openExpiryReleases({
      store,
      expired,
      openRelease,
      now,
      logger,
    });
    expect(retry.opened).toEqual([
      {
        requestId: 'ml/b',
        expiresAt: '2026-12-01T00:00:00.000Z',
        pullRequestUrl: 'https://git.example/ml/b/release',
      },
    ]);
  });
  it('stops between releases once its signal aborts, leaving the rest unclaimed for the next run', async () => {
    const [store] = await replicaStores(1);
    const controller = new AbortController();
    const opened: string[] = [];
    const openRelease = async (key: ExpiryReleaseKey) => {
      opened.push(key.requestId);
      // The scheduler's timeout fires while the first release is opened.
      controller.abort();
      return `https://git.example/${key.requestId}/release`;
    };
    const logger = mockServices.logger.mock();
    const run = await openExpiryReleases({
      store,
      expired,
      openRelease,
      now,
      logger,
      signal: controller.signal,
    });
    expect(run.opened.map(o => o.requestId)).toEqual(['ml/a']);
    expect(opened).toEqual(['ml/a']);
    const next = await openExpiryReleases({
      store,
      expired,
      openRelease,
      now,
      logger,
      signal: new AbortController().signal,
    });
    expect(next.opened.map(o => o.requestId)).toEqual(['ml/b', 'ml/c']);
  });
});
