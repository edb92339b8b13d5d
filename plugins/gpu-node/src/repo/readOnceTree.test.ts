import { ReadOnceRepoTree } from './readOnceTree';
import { MemoryRepoTree } from './tree';

/** A memory tree that counts the reads that reach it. */
function countingTree(files: Record<string, string>) {
  const base = new MemoryRepoTree(files);
  const counts = { reads: 0, listings: 0 };
  return {
    counts,
    tree: {
      readFile: (p: string) => {
        counts.reads++;
        return base.readFile(p);
      },
      listFiles: (p?: string) => {
        counts.listings++;
        return base.listFiles(p);
      },
      writeFile: (p: string, c: string) => base.writeFile(p, c),
      deleteFile: (p: string) => base.deleteFile(p),
    },
  };
}

describe('ReadOnceRepoTree', () => {
  it('reads each file and lists the tree once for a whole pass', async () => {
    const { tree, counts } = countingTree({
      'apps/ml/a/deployment.yaml': 'a',
      'apps/ml/b/deployment.yaml': 'b',
      'clusters/prod/gpu/kustomization.yaml': 'k',
    });
    const once = new ReadOnceRepoTree(tree);
    expect(await once.listFiles('')).toHaveLength(3);
    expect(await once.listFiles('apps')).toEqual([
      'apps/ml/a/deployment.yaml',
      'apps/ml/b/deployment.yaml',
    ]);
    expect(await once.readFile('apps/ml/a/deployment.yaml')).toBe('a');
    expect(await once.readFile('./apps/ml/a/deployment.yaml')).toBe('a');
    expect(await once.readFile('apps/ml/missing.yaml')).toBeUndefined();
    expect(await once.readFile('apps/ml/missing.yaml')).toBeUndefined();
    expect(counts).toEqual({ reads: 2, listings: 1 });
  });

  it('forgets what a write or delete through it changed', async () => {
    const { tree } = countingTree({ 'a.yaml': 'old' });
    const once = new ReadOnceRepoTree(tree);
    expect(await once.readFile('a.yaml')).toBe('old');
    expect(await once.listFiles('')).toEqual(['a.yaml']);
    await once.writeFile('a.yaml', 'new');
    await once.writeFile('b.yaml', 'added');
    expect(await once.readFile('a.yaml')).toBe('new');
    expect(await once.listFiles('')).toEqual(['a.yaml', 'b.yaml']);
    await once.deleteFile('a.yaml');
    expect(await once.readFile('a.yaml')).toBeUndefined();
    expect(await once.listFiles('')).toEqual(['b.yaml']);
  });
});
