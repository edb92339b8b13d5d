import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { FsRepoTree, MemoryRepoTree } from './tree';

describe('RepoTree', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(join(tmpdir(), 'gpu-tree-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('FsRepoTree writes into a repository folder that does not exist yet', async () => {
    const tree = new FsRepoTree(join(dir, 'new-repo'));
    expect(await tree.listFiles()).toEqual([]);
    await tree.writeFile('apps/ml/llm/deployment.yaml', 'kind: Deployment\n');
    expect(await tree.readFile('apps/ml/llm/deployment.yaml')).toBe(
      'kind: Deployment\n',
    );
  });

  it('FsRepoTree reads, lists (sorted, without .git) and writes repository-relative paths', async () => {
    const tree = new FsRepoTree(dir);
    await tree.writeFile(
      'clusters/dev/gpu/kustomization.yaml',
      'kind: Kustomization\n',
    );
    await tree.writeFile('apps/ml/a/deployment.yaml', 'a\n');
    await fs.mkdir(join(dir, '.git'));
    await fs.writeFile(join(dir, '.git', 'HEAD'), 'ref\n');
    expect(await tree.readFile('clusters/dev/gpu/kustomization.yaml')).toBe(
      'kind: Kustomization\n',
    );
    expect(await tree.readFile('missing.yaml')).toBeUndefined();
    expect(await tree.readFile('clusters')).toBeUndefined();
    expect(await tree.listFiles()).toEqual([
      'apps/ml/a/deployment.yaml',
      'clusters/dev/gpu/kustomization.yaml',
    ]);
    expect(await tree.listFiles('clusters/dev')).toEqual([
      'clusters/dev/gpu/kustomization.yaml',
    ]);
    expect(await tree.listFiles('nope/')).toEqual([]);
  });

  it('FsRepoTree refuses paths that escape the repository', async () => {
    const tree = new FsRepoTree(join(dir, 'repo'));
    await expect(tree.writeFile('../outside.yaml', 'x')).rejects.toThrow(
      /\.\./,
    );
    await expect(tree.readFile('/etc/passwd')).rejects.toThrow(/relative/);
    await expect(fs.readdir(dir)).resolves.toEqual([]);
  });

  it('FsRepoTree refuses to follow a symlink out of the repository', async () => {
    const outside = join(dir, 'outside');
    const repo = join(dir, 'repo');
    await fs.mkdir(outside);
    await fs.mkdir(repo);
    await fs.writeFile(join(outside, 'secret.yaml'), 'secret\n');
    await fs.symlink(outside, join(repo, 'clusters'));
    const tree = new FsRepoTree(repo);
    await expect(tree.readFile('clusters/secret.yaml')).rejects.toThrow(
      /symlink/,
    );
    await expect(tree.writeFile('clusters/dev/x.yaml', 'x')).rejects.toThrow(
      /symlink/,
    );
    await expect(fs.readdir(outside)).resolves.toEqual(['secret.yaml']);
    // Symlinked entries are not listed either.
    expect(await tree.listFiles()).toEqual([]);
  });

  it('MemoryRepoTree behaves the same on a Map', async () => {
    const tree = new MemoryRepoTree({
      'b/x.yaml': 'x',
      'a/y.yaml': 'y',
      'ab/z.yaml': 'z',
    });
    await tree.writeFile('a/w.yaml', 'w');
    expect(await tree.listFiles('a')).toEqual(['a/w.yaml', 'a/y.yaml']);
    expect(await tree.readFile('a/w.yaml')).toBe('w');
    expect(await tree.readFile('zzz')).toBeUndefined();
    await expect(tree.readFile('../x')).rejects.toThrow();
  });
});
