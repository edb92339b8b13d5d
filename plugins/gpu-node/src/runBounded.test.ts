import { runBounded } from './runBounded';

const tick = () => new Promise(done => setTimeout(done, 5));

describe('runBounded', () => {
  it('keeps at most the limit in flight and returns results in order', async () => {
    let inFlight = 0;
    let most = 0;
    const tasks = Array.from({ length: 7 }, (_, i) => async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick();
      inFlight--;
      return i * 10;
    });
    expect(await runBounded(tasks, 3)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(most).toBe(3);
  });

  it('throws the first failure after the started tasks ended, and starts no more', async () => {
    const started: number[] = [];
    let running = 0;
    const tasks = Array.from({ length: 6 }, (_, i) => async () => {
      started.push(i);
      running++;
      await tick();
      running--;
      if (i === 0) throw new Error('kustomize failed');
      return i;
    });
    await expect(runBounded(tasks, 2)).rejects.toThrow('kustomize failed');
    expect(running).toBe(0);
    expect(started).toEqual([0, 1]);
  });

  it('gives the event loop turns between tasks that end at once, so a long run of them never holds it', async () => {
    let done = 0;
    const busy = (ms: number) => {
      const start = performance.now();
      while (performance.now() - start < ms);
    };
    const tasks = Array.from({ length: 100 }, () => async () => {
      busy(1);
      done++;
    });
    let doneAtFirstTurn: number | undefined;
    setImmediate(() => {
      doneAtFirstTurn = done;
    });
    await runBounded(tasks, 4);
    expect(done).toBe(100);
    expect(doneAtFirstTurn).toBeLessThan(100);
  });
});
