import { lowerBound, pathsInFolder, sortedPaths } from './sortedPaths';

describe('sortedPaths', () => {
  it('keeps a list already in order as it is, and sorts one that is not', () => {
    const inOrder = ['a/b.yaml', 'a/c.yaml', 'b.yaml'];
    expect(sortedPaths(inOrder)).toBe(inOrder);
    expect(sortedPaths(['b.yaml', 'a/c.yaml', 'a/b.yaml'])).toEqual(inOrder);
  });

  it('sorts paths git lists by bytes but JavaScript orders otherwise (past U+FFFF)', () => {
    // git: U+FF5E (EF BD 9E) before U+1F600 (F0 9F 98 80); code units: D83D < FF5E.
    const gitOrder = ['a/\uFF5E.yaml', 'a/\u{1F600}.yaml'];
    expect(sortedPaths([...gitOrder])).toEqual([...gitOrder].reverse());
  });
});

describe('pathsInFolder and lowerBound', () => {
  const sorted = [
    'a-b/x.yaml',
    'a/b/c.yaml',
    'a/d.yaml',
    'ab/e.yaml',
    'b.yaml',
  ];

  it('finds the files under a folder, not those of a folder whose name it begins', () => {
    expect(pathsInFolder(sorted, 'a')).toEqual(['a/b/c.yaml', 'a/d.yaml']);
    expect(pathsInFolder(sorted, 'a/b')).toEqual(['a/b/c.yaml']);
    expect(pathsInFolder(sorted, 'c')).toEqual([]);
    expect(pathsInFolder(sorted, '')).toEqual(sorted);
  });

  it('gives the first index not before a path', () => {
    expect(lowerBound(sorted, 'a/')).toBe(1);
    expect(lowerBound(sorted, 'zzz')).toBe(sorted.length);
    expect(lowerBound(sorted, '')).toBe(0);
  });
});
