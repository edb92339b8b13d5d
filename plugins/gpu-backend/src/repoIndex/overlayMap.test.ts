import { withEntries } from './overlayMap';

describe('withEntries', () => {
  const base = () =>
    new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);

  it('reads as the previous map with the changed keys set or removed, the previous map left as it is', () => {
    const previous = base();
    const next = withEntries(
      previous,
      new Map<string, number | undefined>([
        ['b', undefined],
        ['c', 30],
        ['d', 4],
      ]),
    );
    expect([...next]).toEqual([
      ['a', 1],
      ['c', 30],
      ['d', 4],
    ]);
    expect(next.size).toBe(3);
    expect(next.get('b')).toBeUndefined();
    expect(next.has('b')).toBe(false);
    expect(next.get('c')).toBe(30);
    expect(next.has('d')).toBe(true);
    expect([...next.keys()]).toEqual(['a', 'c', 'd']);
    expect([...next.values()]).toEqual([1, 30, 4]);
    const seen: string[] = [];
    next.forEach((value, key, map) => {
      expect(map).toBe(next);
      seen.push(`${key}=${value}`);
    });
    expect(seen).toEqual(['a=1', 'c=30', 'd=4']);
    expect(next).toEqual(
      new Map([
        ['a', 1],
        ['c', 30],
        ['d', 4],
      ]),
    );
    expect(previous).toEqual(base());
  });

  it('layers a change on a changed map, each snapshot keeping what it read', () => {
    const first = withEntries(base(), new Map([['a', 10]]));
    const second = withEntries(
      first,
      new Map<string, number | undefined>([
        ['a', undefined],
        ['e', 5],
      ]),
    );
    expect([...first]).toEqual([
      ['a', 10],
      ['b', 2],
      ['c', 3],
    ]);
    expect([...second]).toEqual([
      ['b', 2],
      ['c', 3],
      ['e', 5],
    ]);
    expect(second.size).toBe(3);
  });

  it('removing a key the map does not hold changes nothing', () => {
    const next = withEntries(base(), new Map([['z', undefined]]));
    expect(next.size).toBe(3);
    expect(next.has('z')).toBe(false);
    expect([...next.keys()]).toEqual(['a', 'b', 'c']);
  });

  it('stays exact over many layers (folded into a plain map once the changes grow)', () => {
    const expected = new Map<number, number>();
    for (let i = 0; i < 100; i++) expected.set(i, i);
    let map: Map<number, number> = new Map(expected);
    for (let round = 0; round < 300; round++) {
      const changes = new Map<number, number | undefined>();
      changes.set(round % 100, round % 3 === 0 ? undefined : round);
      changes.set(100 + round, round);
      for (const [key, value] of changes) {
        if (value === undefined) expected.delete(key);
        else expected.set(key, value);
      }
      map = withEntries(map, changes);
    }
    expect(map.size).toBe(expected.size);
    expect(new Map([...map].sort(([a], [b]) => a - b))).toEqual(
      new Map([...expected].sort(([a], [b]) => a - b)),
    );
    for (const [key, value] of expected) expect(map.get(key)).toBe(value);
  });

  it('refuses to be changed in place (a snapshot never changes)', () => {
    const next = withEntries(base(), new Map([['a', 10]]));
    expect(() => next.set('x', 1)).toThrow(TypeError);
    expect(() => next.delete('a')).toThrow(TypeError);
    expect(() => next.clear()).toThrow(TypeError);
    expect(next.get('a')).toBe(10);
  });
});
