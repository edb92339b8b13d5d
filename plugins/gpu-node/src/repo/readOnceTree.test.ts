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

  it("answers each folder's listing out of a listed folder above it without walking the whole listing (100k workload folders blocked the updater for minutes)", async () => {
    const files: Record<string, string> = {};
    for (let n = 0; n < 1000; n++) {
      files[`apps/ns/app-${n}/deployment.yaml`] = 'd';
      files[`apps/ns/app-${n}/kustomization.yaml`] = 'k';
    }
    files['apps/ns/app-1'] = 'a file named like a folder';
    files['apps/ns/app-1.yaml'] = 'a file beside the folder';
    const base = new MemoryRepoTree(files);
    let looks = 0;
    let listings = 0;
    /** The listing as an array that counts how many of its paths are looked at. */
    const counted = (paths: string[]) =>
      new Proxy(paths, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) looks++;
          return Reflect.get(target, key, receiver);
        },
      });
    const once = new ReadOnceRepoTree({
      readFile: p => base.readFile(p),
      listFiles: async p => {
        listings++;
        return counted(await base.listFiles(p));
      },
      writeFile: (p, c) => base.writeFile(p, c),
      deleteFile: p => base.deleteFile(p),
    });
    expect(await once.listFiles('')).toHaveLength(2002);
    looks = 0;
    for (let n = 0; n < 1000; n++) {
      expect(await once.listFiles(`apps/ns/app-${n}`)).toEqual([
        ...(n === 1 ? ['apps/ns/app-1'] : []),
        `apps/ns/app-${n}/deployment.yaml`,
        `apps/ns/app-${n}/kustomization.yaml`,
      ]);
    }
    // One sorted copy of the listing (2002 looks and the sort's), then a
    // binary search per folder: not 1000 walks of 2002 paths.
    expect(looks).toBeLessThan(100_000);
    expect(await once.listFiles('apps/ns')).toHaveLength(2002);
    expect(listings).toBe(1);
  });
});
