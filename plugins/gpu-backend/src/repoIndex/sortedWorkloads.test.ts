import { swapSortedById } from './sortedWorkloads';

const w = (id: string, replicas = 1) => ({ id, replicas });
const ids = (list: { id: string }[] | undefined) => list?.map(x => x.id);

describe('swapSortedById', () => {
  const list = ['a/1', 'a/3', 'b/2', 'c/9'].map(id => w(id));

  it('removes and inserts in id order, leaving the given list as it was', () => {
    const out = swapSortedById(list, new Set(['a/3', 'zz/none']), [
      w('a/2'),
      w('d/0'),
      w('a/3', 5),
    ]);
    expect(ids(out)).toEqual(['a/1', 'a/2', 'a/3', 'b/2', 'c/9', 'd/0']);
    expect(out!.find(x => x.id === 'a/3')!.replicas).toBe(5);
    expect(ids(list)).toEqual(['a/1', 'a/3', 'b/2', 'c/9']);
  });

  it('refuses an added id the list keeps', () => {
    expect(swapSortedById(list, new Set(), [w('b/2')])).toBeUndefined();
  });

  it('gives the same answer past the splice limit as below it', () => {
    const many = Array.from({ length: 200 }, (_, n) =>
      w(`ns/app-${String(n).padStart(3, '0')}`),
    );
    const removed = new Set(many.filter((_, n) => n % 3 === 0).map(x => x.id));
    const added = Array.from({ length: 100 }, (_, n) => w(`ns/new-${n}`));
    const expected = [
      ...many.filter(x => !removed.has(x.id)).map(x => x.id),
      ...added.map(x => x.id),
    ].sort((a, b) => (a < b ? -1 : 1));
    expect(ids(swapSortedById(many, removed, added))).toEqual(expected);
    expect(
      swapSortedById(many, new Set(), [...added, w('ns/app-005')]),
    ).toBeUndefined();
    const few = swapSortedById(
      many,
      new Set(['ns/app-000']),
      added.slice(0, 3),
    );
    expect(ids(few)).toEqual(
      [
        ...many.slice(1).map(x => x.id),
        'ns/new-0',
        'ns/new-1',
        'ns/new-2',
      ].sort((a, b) => (a < b ? -1 : 1)),
    );
  });
});
