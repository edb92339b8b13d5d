import { diffLines, renderChangeSetDiff } from './diff';

describe('renderChangeSetDiff', () => {
  it('renders a created file against /dev/null', () => {
    expect(
      renderChangeSetDiff({
        empty: false,
        changes: [
          { path: 'a.yaml', action: 'create', content: 'x: 1\ny: 2\n' },
        ],
      }),
    ).toBe('--- /dev/null\n+++ b/a.yaml\n@@ -0,0 +1,2 @@\n+x: 1\n+y: 2\n');
  });

  it('renders hunks with three lines of context and correct line numbers', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[1] = 'changed 2';
    after.splice(15, 0, 'inserted');
    const text = renderChangeSetDiff({
      empty: false,
      changes: [
        {
          path: 'f.txt',
          action: 'update',
          previous: `${before.join('\n')}\n`,
          content: `${after.join('\n')}\n`,
        },
      ],
    });
    expect(text).toBe(
      [
        '--- a/f.txt',
        '+++ b/f.txt',
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+changed 2',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -13,6 +13,7 @@',
        ' line 13',
        ' line 14',
        ' line 15',
        '+inserted',
        ' line 16',
        ' line 17',
        ' line 18',
        '',
      ].join('\n'),
    );
  });

  it('orders files by path and is empty for an empty change set', () => {
    expect(renderChangeSetDiff({ empty: true, changes: [] })).toBe('');
    const text = renderChangeSetDiff({
      empty: false,
      changes: [
        { path: 'b', action: 'create', content: 'b\n' },
        { path: 'a', action: 'create', content: 'a\n' },
      ],
    });
    expect(text.indexOf('+++ b/a')).toBeLessThan(text.indexOf('+++ b/b'));
  });

  it('shows a missing newline at the end of the previous file', () => {
    expect(
      renderChangeSetDiff({
        empty: false,
        changes: [
          {
            path: 'k.yaml',
            action: 'update',
            previous: 'a: 1',
            content: 'a: 1\n',
          },
        ],
      }),
    ).toBe(
      '--- a/k.yaml\n+++ b/k.yaml\n@@ -1,1 +1,1 @@\n-a: 1\n\\ No newline at end of file\n+a: 1\n',
    );
  });

  it('diffLines keeps common lines and marks the rest', () => {
    expect(
      diffLines(['a', 'b', 'c'], ['a', 'x', 'c']).map(
        o => `${o.kind}${o.line}`,
      ),
    ).toEqual([' a', '-b', '+x', ' c']);
  });
});
