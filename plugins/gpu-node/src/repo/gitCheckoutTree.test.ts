import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitCheckoutTree } from './gitCheckoutTree';
import { FsRepoTree } from './tree';

/** What `listFiles(prefix)` gives, or the message it throws (a refused symbolic link). */
async function listing(
  tree: FsRepoTree,
  prefix: string,
): Promise<string[] | string> {
  try {
    return await tree.listFiles(prefix);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

const PREFIXES = [
  '',
  'apps',
  'apps/ml',
  'apps/ml/chat',
  'apps/ml/chat/deployment.yaml',
  'clusters',
  'clusters/dev/gpu',
  'linked-folder',
  'linked-folder/x',
  'swapped',
  'nested',
  'vendor',
  'missing',
];

describe('GitCheckoutTree', () => {
  let dir: string;
  let outside: string;
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString();
  const write = async (file: string, text = `${file}\n`) => {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-checkout-tree-'));
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-outside-'));
    await fs.writeFile(path.join(outside, 'secret.yaml'), 'secret\n');
    git('init', '-q', '-b', 'main');
    for (const file of [
      'apps/ml/chat/deployment.yaml',
      'apps/ml/chat/kustomization.yaml',
      'apps/ml/batch/job.yaml',
      'apps/ml-other/x.yaml',
      'clusters/dev/gpu/kustomization.yaml',
      'clusters/dev/gpu/pools/a.yaml',
      'clusters/dev/kustomization.yaml',
      'swapped/file.yaml',
      'to-delete.yaml',
      'to-modify.yaml',
      'became-folder',
    ]) {
      await write(file);
    }
    await fs.symlink(outside, path.join(dir, 'linked-folder'));
    await fs.symlink('to-modify.yaml', path.join(dir, 'link.yaml'));
    git('add', '-A');
    git(
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '-m',
      'base',
    );
    // The work tree, then, as a run may find it.
    await fs.rm(path.join(dir, 'to-delete.yaml'));
    await write('to-modify.yaml', 'changed\n');
    await fs.rm(path.join(dir, 'became-folder'));
    await write('became-folder/inside.yaml');
    await fs.rm(path.join(dir, 'swapped'), { recursive: true });
    await fs.symlink(outside, path.join(dir, 'swapped'));
    await write('apps/ml/untracked.yaml');
    await fs.symlink(outside, path.join(dir, 'apps/ml/untracked-link'));
    await write('nested/inner.yaml');
    execFileSync('git', ['init', '-q'], { cwd: path.join(dir, 'nested') });
    execFileSync('mkfifo', [path.join(dir, 'apps/ml/fifo')]);
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });

  it('lists what a walk of the disk lists: modified, deleted, untracked, links, nested repositories', async () => {
    const fromGit = new GitCheckoutTree(dir);
    for (const prefix of PREFIXES) {
      expect([prefix, await listing(fromGit, prefix)]).toEqual([
        prefix,
        await listing(new FsRepoTree(dir), prefix),
      ]);
    }
    expect(await fromGit.listFiles('apps/ml')).toEqual([
      'apps/ml/batch/job.yaml',
      'apps/ml/chat/deployment.yaml',
      'apps/ml/chat/kustomization.yaml',
      'apps/ml/untracked.yaml',
    ]);
  });

  it('lays what is written and deleted through it over the listing', async () => {
    const tree = new GitCheckoutTree(dir);
    expect(await tree.listFiles('clusters/dev')).toHaveLength(3);
    await tree.writeFile('clusters/dev/gpu/pools/b.yaml', 'b\n');
    await tree.deleteFile('clusters/dev/gpu/pools/a.yaml');
    await tree.writeFile('apps/ml/gone-again.yaml', 'x\n');
    await tree.deleteFile('apps/ml/gone-again.yaml');
    await tree.deleteFile('apps/ml/batch/job.yaml');
    await tree.writeFile('apps/ml/batch/job.yaml', 'back\n');
    for (const prefix of PREFIXES) {
      expect([prefix, await listing(tree, prefix)]).toEqual([
        prefix,
        await listing(new FsRepoTree(dir), prefix),
      ]);
    }
    expect(await tree.listFiles('clusters/dev/gpu')).toEqual([
      'clusters/dev/gpu/kustomization.yaml',
      'clusters/dev/gpu/pools/b.yaml',
    ]);
    expect((await tree.blobIds()).has('apps/ml/batch/job.yaml')).toBe(false);
  });

  it('lists a checkout without walking its folders on disk', async () => {
    const tree = new GitCheckoutTree(dir);
    await tree.blobIds();
    const readdir = jest.spyOn(fs, 'readdir');
    try {
      expect(await tree.listFiles('')).toContain(
        'apps/ml/chat/deployment.yaml',
      );
      expect(await tree.listFiles('clusters/dev/gpu')).toHaveLength(2);
      expect(readdir).not.toHaveBeenCalled();
    } finally {
      readdir.mockRestore();
    }
  });

  it('walks the disk in a folder that is no git checkout', async () => {
    const plain = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-plain-'));
    try {
      await fs.mkdir(path.join(plain, 'a'));
      await fs.writeFile(path.join(plain, 'a', 'b.yaml'), 'b\n');
      const tree = new GitCheckoutTree(plain);
      expect(await tree.listFiles('')).toEqual(['a/b.yaml']);
      expect((await tree.blobIds()).size).toBe(0);
    } finally {
      await fs.rm(plain, { recursive: true, force: true });
    }
  });
});
