import { mockServices } from '@backstage/backend-test-utils';
import { usePostgresServer } from '../__testUtils__/postgresServer';
import { RunClaimStore, STALE_RUN_CLAIM_MS } from './runClaimStore';

const postgres = usePostgresServer();

/** Each replica's store: its own client, one shared database. */
async function replicaStores(count: number): Promise<RunClaimStore[]> {
  const connection = await postgres.newDatabase();
  return Promise.all(
    Array.from({ length: count }, async () => {
      const knex = postgres.client(connection);
      return RunClaimStore.create(mockServices.database({ knex }));
    }),
  );
}

const TASK = 'gpu-some-task';
const now = new Date('2026-12-02T09:00:00Z');

describe('RunClaimStore', () => {
  it('lets one replica run a task at a time, and the next once it is released', async () => {
    const [first, second] = await replicaStores(2);
    const claims = await Promise.all([
      first.claim(TASK, now),
      second.claim(TASK, now),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const held = claims.find(Boolean)!;
    expect(await second.claim(TASK, now)).toBeUndefined();
    await held.release();
    const next = await second.claim(TASK, now);
    expect(next).toBeDefined();
    await next!.release();
  });

  it('runs the work under the claim and releases it on every exit path', async () => {
    const [first, second] = await replicaStores(2);
    let finishFirst!: () => void;
    const firstRun = first.runClaimed(TASK, now, async () => {
      await new Promise<void>(resolve => {
        finishFirst = resolve;
      });
      return 'ran';
    });
    // The first run's work has started: it holds the claim.
    while (!finishFirst) await new Promise(resolve => setTimeout(resolve, 50));
    const secondRan = jest.fn(async () => 'ran too');
    expect(await second.runClaimed(TASK, now, secondRan)).toEqual({
      ran: false,
    });
    expect(secondRan).not.toHaveBeenCalled();
    finishFirst();
    expect(await firstRun).toEqual({ ran: true, result: 'ran' });

    await expect(
      second.runClaimed(TASK, now, async () => {
        throw new Error('the forge said no');
      }),
    ).rejects.toThrow('the forge said no');
    expect(await first.runClaimed(TASK, now, async () => 1)).toEqual({
      ran: true,
      result: 1,
    });
  });

  it('takes over a claim left older than its stale period, and the old holder cannot release the new one', async () => {
    const [first, second] = await replicaStores(2);
    const dead = await first.claim(TASK, now);
    expect(dead).toBeDefined();
    const later = new Date(now.getTime() + STALE_RUN_CLAIM_MS + 1);
    const taken = await second.claim(TASK, later);
    expect(taken).toBeDefined();
    // The first replica comes back and releases what it thinks it holds.
    await dead!.release();
    expect(await first.claim(TASK, later)).toBeUndefined();
    await taken!.release();
  });
});
