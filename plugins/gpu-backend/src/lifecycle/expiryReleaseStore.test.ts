import { mockServices } from '@backstage/backend-test-utils';
import { usePostgresServer } from '../__testUtils__/postgresServer';
import { ExpiryReleaseStore, STALE_CLAIM_MS } from './expiryReleaseStore';

/** Two backend replicas: two connection pools on one PostgreSQL database. */
const postgres = usePostgresServer();

/** A replica's store: a client of its own on the shared database. */
function storeOn(connection: string): Promise<ExpiryReleaseStore> {
  return ExpiryReleaseStore.create(
    mockServices.database({ knex: postgres.client(connection) }),
  );
}

const key = (requestId: string) => ({
  requestId,
  expiresAt: '2026-12-01T00:00:00.000Z',
});
const now = new Date('2026-12-02T09:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('ExpiryReleaseStore on PostgreSQL', () => {
  it('lets one of two replicas claim each expired request, however they race', async () => {
    const connection = await postgres.newDatabase();
    const [a, b] = [await storeOn(connection), await storeOn(connection)];
    const ids = Array.from({ length: 20 }, (_, i) => `ml/experiment-${i}`);
    const claims = await Promise.all(
      ids.flatMap(id => [a.claim(key(id), now), b.claim(key(id), now)]),
    );
    for (let i = 0; i < ids.length; i++) {
      expect([claims[2 * i], claims[2 * i + 1]].filter(Boolean)).toHaveLength(
        1,
      );
    }
  });

  it('never opens a release twice, across restarts, once it is opened', async () => {
    const connection = await postgres.newDatabase();
    const a = await storeOn(connection);
    expect(await a.claim(key('ml/llm'), now)).toBe(true);
    await a.markOpened(key('ml/llm'), 'https://git.example/pr/7');
    // A restarted replica runs the migrations again and sees the row.
    const restarted = await storeOn(connection);
    expect(
      await restarted.claim(key('ml/llm'), later(2 * STALE_CLAIM_MS)),
    ).toBe(false);
    expect(await restarted.opened(key('ml/llm'))).toBe(
      'https://git.example/pr/7',
    );
    // A new expiry date (the request was extended, then expired again) is a new release.
    expect(
      await restarted.claim(
        { requestId: 'ml/llm', expiresAt: '2027-01-01T00:00:00.000Z' },
        now,
      ),
    ).toBe(true);
  });

  it('retries a release whose opening failed or whose replica died mid-way', async () => {
    const connection = await postgres.newDatabase();
    const [a, b] = [await storeOn(connection), await storeOn(connection)];
    expect(await a.claim(key('ml/failed'), now)).toBe(true);
    await a.forget(key('ml/failed'));
    expect(await b.claim(key('ml/failed'), now)).toBe(true);

    expect(await a.claim(key('ml/died'), now)).toBe(true);
    expect(await b.claim(key('ml/died'), later(STALE_CLAIM_MS / 2))).toBe(
      false,
    );
    expect(await b.claim(key('ml/died'), later(STALE_CLAIM_MS + 1000))).toBe(
      true,
    );
    // The stale claim is taken once, not by both.
    expect(await a.claim(key('ml/died'), later(STALE_CLAIM_MS + 2000))).toBe(
      false,
    );
  });
});
