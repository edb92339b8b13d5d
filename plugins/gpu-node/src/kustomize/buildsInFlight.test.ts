import { TaskSlots } from './buildsInFlight';

const tick = () => new Promise(done => setTimeout(done, 5));

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
