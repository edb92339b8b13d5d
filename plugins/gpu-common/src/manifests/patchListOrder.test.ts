import { mergedListInOrder, replacedListWithOurs } from './patchListOrder';

describe('mergedListInOrder', () => {
  const gpu = { name: 'model', resources: { limits: { 'nvidia.com/gpu': 1 } } };

  it('names every item before the changed one, by key only, in the workload’s order', () => {
    expect(
      mergedListInOrder(['proxy', 'model', 'logs'], 'name', [gpu]),
    ).toEqual([{ name: 'proxy' }, gpu]);
    expect(
      mergedListInOrder(['proxy', 'logs', 'model'], 'name', [gpu]),
    ).toEqual([{ name: 'proxy' }, { name: 'logs' }, gpu]);
  });

  it('is the changed item alone when it is first', () => {
    expect(mergedListInOrder(['model', 'proxy'], 'name', [gpu])).toEqual([gpu]);
  });

  it('puts an item the workload does not have after all of its own', () => {
    expect(mergedListInOrder(['proxy', 'logs'], 'name', [gpu])).toEqual([
      { name: 'proxy' },
      { name: 'logs' },
      gpu,
    ]);
  });
});

describe('replacedListWithOurs', () => {
  const ours = { name: 'gpu', request: 'gpu' };

  it('keeps the own items in their order and appends ours', () => {
    expect(replacedListWithOurs([{ name: 'b' }, { name: 'a' }], ours)).toEqual([
      { name: 'b' },
      { name: 'a' },
      ours,
    ]);
  });

  it('puts ours where an item of its name was (a re-render)', () => {
    expect(
      replacedListWithOurs(
        [{ name: 'gpu', request: 'old' }, { name: 'a' }],
        ours,
      ),
    ).toEqual([ours, { name: 'a' }]);
  });
});
