import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import {
  isGpuInputError,
  type GpuInputError,
} from '@gpu-gitops/plugin-gpu-common';
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

  /** The GpuInputError of a refused symlink: its repository path and rule. */
  async function refusal(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isGpuInputError(error)).toBe(true);
    const [issue] = (error as GpuInputError).issues;
    expect(issue.rule).toBe('symlink');
    return issue.path;
  }

  it('FsRepoTree refuses to follow a symlink out of the repository', async () => {
    const outside = join(dir, 'outside');
    const repo = join(dir, 'repo');
    await fs.mkdir(outside);
    await fs.mkdir(repo);
    await fs.writeFile(join(outside, 'secret.yaml'), 'secret\n');
    await fs.symlink(outside, join(repo, 'clusters'));
    const tree = new FsRepoTree(repo);
    expect(await refusal(tree.readFile('clusters/secret.yaml'))).toBe(
      'clusters',
    );
    expect(await refusal(tree.writeFile('clusters/dev/x.yaml', 'x'))).toBe(
      'clusters',
    );
    await expect(fs.readdir(outside)).resolves.toEqual(['secret.yaml']);
    // Symlinked entries are not listed either, nor is a symlinked prefix followed.
    expect(await tree.listFiles()).toEqual([]);
    expect(await refusal(tree.listFiles('clusters'))).toBe('clusters');
  });

  it('FsRepoTree refuses a dangling symlink (file or folder) and creates nothing at its target', async () => {
    const repo = join(dir, 'repo');
    const target = join(dir, 'outside', 'pool.yaml');
    await fs.mkdir(join(repo, 'clusters/dev/gpu/nodepools'), {
      recursive: true,
    });
    await fs.symlink(
      target,
      join(repo, 'clusters/dev/gpu/nodepools/gpu-l4.yaml'),
    );
    await fs.symlink(join(dir, 'elsewhere'), join(repo, 'apps'));
    const tree = new FsRepoTree(repo);
    expect(
      await refusal(
        tree.writeFile(
          'clusters/dev/gpu/nodepools/gpu-l4.yaml',
          'kind: NodePool\n',
        ),
      ),
    ).toBe('clusters/dev/gpu/nodepools/gpu-l4.yaml');
    expect(
      await refusal(tree.readFile('clusters/dev/gpu/nodepools/gpu-l4.yaml')),
    ).toBe('clusters/dev/gpu/nodepools/gpu-l4.yaml');
    expect(
      await refusal(tree.writeFile('apps/ml/llm/deployment.yaml', 'x')),
    ).toBe('apps');
    expect(await fs.readdir(dir)).toEqual(['repo']);
    expect(await tree.listFiles()).toEqual([]);
  });

  it('FsRepoTree refuses a symlink that stays inside the repository too', async () => {
    const repo = join(dir, 'repo');
    await fs.mkdir(join(repo, 'requests/ml'), { recursive: true });
    await fs.writeFile(join(repo, 'requests/ml/real.yaml'), 'real\n');
    await fs.symlink('real.yaml', join(repo, 'requests/ml/llm.yaml'));
    const tree = new FsRepoTree(repo);
    expect(await refusal(tree.readFile('requests/ml/llm.yaml'))).toBe(
      'requests/ml/llm.yaml',
    );
    expect(await refusal(tree.writeFile('requests/ml/llm.yaml', 'x'))).toBe(
      'requests/ml/llm.yaml',
    );
    expect(await fs.readFile(join(repo, 'requests/ml/real.yaml'), 'utf8')).toBe(
      'real\n',
    );
    expect(await tree.listFiles('requests')).toEqual(['requests/ml/real.yaml']);
  });

  it('FsRepoTree never writes into a file outside the repository through a hard link', async () => {
    const repo = join(dir, 'repo');
    const outside = join(dir, 'outside.yaml');
    await fs.mkdir(join(repo, 'clusters/dev/gpu'), { recursive: true });
    await fs.writeFile(outside, 'secret: kept\n');
    await fs.chmod(outside, 0o600);
    await fs.link(outside, join(repo, 'clusters/dev/gpu/kustomization.yaml'));
    const tree = new FsRepoTree(repo);
    await tree.writeFile('clusters/dev/gpu/kustomization.yaml', 'kind: K\n');
    expect(await fs.readFile(outside, 'utf8')).toBe('secret: kept\n');
    expect(
      await fs.readFile(
        join(repo, 'clusters/dev/gpu/kustomization.yaml'),
        'utf8',
      ),
    ).toBe('kind: K\n');
    // The replaced file keeps its permission bits, and no temporary file is left.
    const written = await fs.stat(
      join(repo, 'clusters/dev/gpu/kustomization.yaml'),
    );
    expect(written.mode & 0o777).toBe(0o600);
    expect(written.nlink).toBe(1);
    expect(await fs.readdir(join(repo, 'clusters/dev/gpu'))).toEqual([
      'kustomization.yaml',
    ]);
  });

  it('FsRepoTree works through a symlinked root (the caller chose it)', async () => {
    const repo = join(dir, 'repo');
    await fs.mkdir(repo);
    await fs.symlink(repo, join(dir, 'link-to-repo'));
    const tree = new FsRepoTree(join(dir, 'link-to-repo'));
    await tree.writeFile('a/b.yaml', 'b\n');
    expect(await fs.readFile(join(repo, 'a/b.yaml'), 'utf8')).toBe('b\n');
    expect(await tree.listFiles()).toEqual(['a/b.yaml']);
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
