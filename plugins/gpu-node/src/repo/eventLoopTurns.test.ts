import {
  eventLoopTurns,
  filterInTurns,
  mapInTurns,
  runStepsInTurns,
  someInTurns,
} from './eventLoopTurns';
import { runSteps } from '@gpu-gitops/plugin-gpu-common';

const busy = (ms: number) => {
  const start = performance.now();
  while (performance.now() - start < ms);
};

describe('eventLoopTurns', () => {
  it('gives no turn before a slice of work has run', async () => {
    const turn = eventLoopTurns(1_000);
    let ranImmediate = false;
    setImmediate(() => {
      ranImmediate = true;
    });
    await turn();
    expect(ranImmediate).toBe(false);
  });

  it('gives a turn once a slice of work has run', async () => {
    const turn = eventLoopTurns(1);
    let ranImmediate = false;
    setImmediate(() => {
      ranImmediate = true;
    });
    busy(2);
    await turn();
    expect(ranImmediate).toBe(true);
  });
});

describe('mapInTurns', () => {
  it('maps in order, like Array.prototype.map', async () => {
    expect(await mapInTurns(new Set([1, 2, 3]), n => n * 10)).toEqual([
      10, 20, 30,
    ]);
  });

  it('lets the event loop run between items of a long map', async () => {
    let mapped = 0;
    let mappedAtFirstTurn: number | undefined;
    setImmediate(() => {
      mappedAtFirstTurn = mapped;
    });
    await mapInTurns(
      Array.from({ length: 100 }, (_, i) => i),
      () => {
        busy(1);
        mapped++;
      },
      eventLoopTurns(5),
    );
    expect(mappedAtFirstTurn).toBeDefined();
    expect(mappedAtFirstTurn!).toBeLessThan(100);
  });
});

describe('filterInTurns', () => {
  it('keeps what Array.prototype.filter keeps, in order', async () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const odd = (n: number) => n % 2 === 1;
    expect(await filterInTurns(items, odd)).toEqual(items.filter(odd));
  });

  it('lets the event loop run between items of a long filter', async () => {
    let tested = 0;
    let testedAtFirstTurn: number | undefined;
    setImmediate(() => {
      testedAtFirstTurn = tested;
    });
    await filterInTurns(
      Array.from({ length: 100 }, (_, i) => i),
      () => {
        busy(1);
        tested++;
        return true;
      },
      eventLoopTurns(5),
    );
    expect(testedAtFirstTurn).toBeDefined();
    expect(testedAtFirstTurn!).toBeLessThan(100);
  });
});

describe('someInTurns', () => {
  it('answers as Array.prototype.some does, and stops at the first item that passes', async () => {
    const tested: number[] = [];
    const above = (limit: number) => (n: number) => {
      tested.push(n);
      return n > limit;
    };
    expect(await someInTurns([1, 5, 9, 12], above(4))).toBe(true);
    expect(tested).toEqual([1, 5]);
    expect(await someInTurns([1, 5, 9], above(10))).toBe(false);
    expect(await someInTurns([], above(0))).toBe(false);
  });

  it('lets the event loop run between items of a long search', async () => {
    let tested = 0;
    let testedAtFirstTurn: number | undefined;
    setImmediate(() => {
      testedAtFirstTurn = tested;
    });
    const found = await someInTurns(
      Array.from({ length: 100 }, (_, i) => i),
      () => {
        busy(1);
        tested++;
        return false;
      },
      eventLoopTurns(5),
    );
    expect(found).toBe(false);
    expect(testedAtFirstTurn).toBeDefined();
    expect(testedAtFirstTurn!).toBeLessThan(100);
  });
});

describe('eventLoopTurns shared by callers side by side', () => {
  it('gives them one slice between two turns of the loop, not one slice each', async () => {
    // A clock that moves one unit per unit of work: the count is exact on any machine.
    let now = 0;
    const slice = 4;
    const workers = 8;
    const turn = eventLoopTurns(slice, () => now);
    let sinceObserved = 0;
    let mostBetweenTurns = 0;
    let running = true;
    // Runs once per check phase of the loop, like any other callback waiting.
    const observe = () => {
      mostBetweenTurns = Math.max(mostBetweenTurns, sinceObserved);
      sinceObserved = 0;
      if (running) setImmediate(observe);
    };
    setImmediate(observe);
    const worker = async () => {
      for (let unit = 0; unit < 200; unit++) {
        await turn();
        now++;
        sinceObserved++;
      }
    };
    await Promise.all(Array.from({ length: workers }, worker));
    running = false;
    // The slice, and one unit of each other worker woken by the same turn.
    expect(mostBetweenTurns).toBeLessThanOrEqual(slice + workers - 1);
    expect(mostBetweenTurns).toBeGreaterThanOrEqual(slice);
  });
});

describe('runSteps and runStepsInTurns', () => {
  function* summing(items: number[]): Generator<void, number> {
    let sum = 0;
    for (const item of items) {
      sum += item;
      yield;
    }
    return sum;
  }

  it('run a generator of steps to its value, whole or with a turn asked between steps', async () => {
    expect(runSteps(summing([1, 2, 3]))).toBe(6);
    let asked = 0;
    expect(
      await runStepsInTurns(summing([1, 2, 3]), async () => {
        asked++;
      }),
    ).toBe(6);
    expect(asked).toBe(3);
  });
});
