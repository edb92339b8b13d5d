import { runBounded, TaskSlots } from './buildsInFlight';

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
});

describe('TaskSlots', () => {
  it('holds every caller to one limit, hands slots on in arrival order, and frees a failed task’s slot', async () => {
    const slots = new TaskSlots(2);
    let inFlight = 0;
    let most = 0;
    const started: string[] = [];
    const task =
      (name: string, fails = false) =>
      async () => {
        started.push(name);
        inFlight++;
        most = Math.max(most, inFlight);
        await tick();
        inFlight--;
        if (fails) throw new Error(`${name} failed`);
        return name;
      };
    const results = await Promise.allSettled([
      slots.run(task('a', true)),
      slots.run(task('b')),
      slots.run(task('c')),
      slots.run(task('d')),
      slots.run(task('e')),
    ]);
    expect(results.map(r => r.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(most).toBe(2);
    // Every slot is free again: two new tasks start at once.
    await Promise.all([slots.run(task('f')), slots.run(task('g'))]);
    expect(most).toBe(2);
    expect(started.slice(5)).toEqual(['f', 'g']);
  });
});
