import { tolerates, untoleratedTaints } from './tolerations';

describe('tolerates', () => {
  const taint = { key: 'nvidia.com/gpu', value: 'pool', effect: 'NoSchedule' };
  it.each([
    [{ operator: 'Exists' }, true],
    [{ key: 'nvidia.com/gpu', operator: 'Exists' }, true],
    [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'pool' }, true],
    [{ key: 'nvidia.com/gpu', value: 'pool' }, true],
    [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'other' }, false],
    [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoExecute' }, false],
    [{ key: 'nvidia.com/gpu', value: 'pool', effect: 'NoSchedule' }, true],
    [{ key: 'nvidia.com/gpu', value: 'pool', effect: 'NoExecute' }, false],
    [{ key: 'other', operator: 'Exists' }, false],
    [{ key: '', operator: 'Equal' }, false],
  ])('%j -> %s', (toleration, expected) => {
    expect(tolerates(toleration, taint)).toBe(expected);
  });

  it('matches an empty value to a taint without one', () => {
    expect(
      tolerates(
        { key: 'k', operator: 'Equal' },
        { key: 'k', effect: 'NoSchedule' },
      ),
    ).toBe(true);
  });
});

describe('untoleratedTaints', () => {
  const gpu = { key: 'nvidia.com/gpu', value: 'pool', effect: 'NoSchedule' };
  const drain = { key: 'drain', effect: 'NoExecute' };
  const prefer = { key: 'spot', effect: 'PreferNoSchedule' };

  it('lists the NoSchedule / NoExecute taints nothing tolerates, never PreferNoSchedule', () => {
    expect(untoleratedTaints([gpu, drain, prefer], [])).toEqual([gpu, drain]);
    expect(
      untoleratedTaints(
        [gpu, drain, prefer],
        [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
      ),
    ).toEqual([drain]);
    expect(untoleratedTaints([gpu, drain], [{ operator: 'Exists' }])).toEqual(
      [],
    );
  });
});
