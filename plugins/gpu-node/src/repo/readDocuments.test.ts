import { parseYamlFile, readDocuments } from './readDocuments';
import { MemoryRepoTree } from './tree';
import type { SkippedFile } from './yamlObjects';

describe('parseYamlFile', () => {
  it('gives the documents of one file from its text, empty ones left out', () => {
    const skipped: SkippedFile[] = [];
    expect(
      parseYamlFile(
        'a.yaml',
        'kind: A\n---\n# nothing\n---\nkind: B\n',
        skipped,
      ),
    ).toEqual([
      { path: 'a.yaml', index: 0, value: { kind: 'A' } },
      { path: 'a.yaml', index: 2, value: { kind: 'B' } },
    ]);
    expect(skipped).toEqual([]);
  });

  it('reports a file that does not parse instead of throwing, as the tree reader does', async () => {
    const skipped: SkippedFile[] = [];
    expect(parseYamlFile('bad.yaml', 'kind: A\n  x: [\n', skipped)).toEqual([]);
    expect(skipped).toEqual([
      { path: 'bad.yaml', reason: expect.stringMatching(/YAML syntax error/) },
    ]);
    const fromTree: SkippedFile[] = [];
    await readDocuments(
      new MemoryRepoTree({ 'f/bad.yaml': 'kind: A\n  x: [\n' }),
      'f',
      fromTree,
    );
    expect(fromTree).toEqual([{ ...skipped[0], path: 'f/bad.yaml' }]);
  });
});
