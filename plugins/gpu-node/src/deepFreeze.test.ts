import { deepFreeze, deepFreezeInTurns } from './deepFreeze';

const state = () => ({
  pools: [{ name: 'a', limits: { 'nvidia.com/gpu': 4 } }],
  workloads: Array.from({ length: 3_000 }, (_, i) => ({
    id: `ml/w${i}`,
    scheduling: { tolerations: [{ key: 'nvidia.com/gpu' }] },
  })),
});

describe('deepFreeze', () => {
  it('freezes everything a value holds, so a reader that changes it throws', () => {
    const frozen = deepFreeze(state());
    expect(() => {
      (frozen.pools[0].limits as Record<string, number>)['nvidia.com/gpu'] = 8;
    }).toThrow(TypeError);
    expect(
      Object.isFrozen(frozen.workloads[2_999].scheduling.tolerations[0]),
    ).toBe(true);
  });

  it('in turns: freezes the same, and takes a turn every thousand objects', async () => {
    let turns = 0;
    const frozen = await deepFreezeInTurns(state(), async () => {
      turns++;
    });
    expect(() => {
      frozen.workloads.push(frozen.workloads[0]);
    }).toThrow(TypeError);
    expect(
      Object.isFrozen(frozen.workloads[1_500].scheduling.tolerations[0]),
    ).toBe(true);
    // The root, the pools, the pool, its limits, the workloads' list, and
    // 4 per workload (it, its scheduling, tolerations and toleration).
    expect(turns).toBe(Math.floor((5 + 3_000 * 4) / 1_000));
  });

  it('takes an object already frozen as frozen through, in both walks', async () => {
    const constant = Object.freeze({ inner: { editable: 1 } });
    deepFreeze({ constant });
    await deepFreezeInTurns({ constant }, async () => {});
    expect(Object.isFrozen(constant.inner)).toBe(false);
    expect(deepFreeze(7)).toBe(7);
  });
});
