import { RecentRepoStates, repoStateKey } from './recentRepoStates';

describe('RecentRepoStates', () => {
  it('reads once per key and gives every reader of the key the one state', async () => {
    const states = new RecentRepoStates<{ pools: string[] }>();
    let reads = 0;
    const read = async () => {
      reads++;
      return { pools: ['a'] };
    };
    const first = await states.recall('k', read);
    const second = await states.recall('k', read);
    expect(second).toBe(first);
    expect(reads).toBe(1);
  });

  it('gives readers of a key being read that read, and reads again after one that failed', async () => {
    const states = new RecentRepoStates<{ pools: string[] }>();
    let reads = 0;
    let finish!: (outcome: Error | { pools: string[] }) => void;
    const read = () => {
      reads++;
      return new Promise<{ pools: string[] }>((resolve, reject) => {
        finish = outcome =>
          outcome instanceof Error ? reject(outcome) : resolve(outcome);
      });
    };
    const failing = [states.recall('k', read), states.recall('k', read)];
    finish(new Error('checkout gone'));
    for (const result of await Promise.allSettled(failing)) {
      expect(result).toMatchObject({
        status: 'rejected',
        reason: { message: 'checkout gone' },
      });
    }
    expect(reads).toBe(1);
    expect(states.size).toBe(0);

    const both = [states.recall('k', read), states.recall('k', read)];
    finish({ pools: ['a'] });
    const [first, second] = await Promise.all(both);
    expect(second).toBe(first);
    expect(reads).toBe(2);
    expect(await states.recall('k', read)).toBe(first);
    expect(reads).toBe(2);
  });

  it('reads every time without a key', async () => {
    const states = new RecentRepoStates<number>();
    let reads = 0;
    await states.recall(undefined, async () => ++reads);
    await states.recall(undefined, async () => ++reads);
    expect(reads).toBe(2);
    expect(states.size).toBe(0);
  });

  it('keeps the few used last, and none past its time', async () => {
    const states = new RecentRepoStates<string>(2, 50);
    for (const key of ['a', 'b', 'a', 'c']) {
      await states.recall(key, async () => key);
    }
    let read = false;
    await states.recall('b', async () => {
      read = true;
      return 'b';
    });
    // 'b' was the least recently used when 'c' came.
    expect(read).toBe(true);
    await new Promise(resolve => setTimeout(resolve, 120));
    expect(states.size).toBe(0);
  });

  it('keys by content and by every input', () => {
    const key = repoStateKey('tree', { cluster: 'dev' });
    expect(key).toBe(repoStateKey('tree', { cluster: 'dev' }));
    expect(key).not.toBe(repoStateKey('tree', { cluster: 'prod' }));
    expect(key).not.toBe(repoStateKey('other tree', { cluster: 'dev' }));
    expect(repoStateKey(undefined, { cluster: 'dev' })).toBeUndefined();
  });
});
