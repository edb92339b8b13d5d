/**
 * `checkoutFilesContaining` on the clone the publisher keeps: sparse and
 * partial (`--filter=blob:none`), so the blobs outside the checkout's folders
 * are not on the machine. Searching them would fetch each from the remote.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkoutFilesContaining } from './checkoutFilesContaining';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8' });

/** The objects the clone holds (a fetched blob adds one). */
const objectsHeld = (dir: string) =>
  git(dir, 'cat-file', '--batch-check', '--batch-all-objects')
    .split('\n')
    .filter(Boolean).length;

describe('checkoutFilesContaining', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-files-containing-'));
    const source = path.join(root, 'source');
    for (const folder of ['clusters/prod', 'platform']) {
      await fs.mkdir(path.join(source, folder), { recursive: true });
    }
    await fs.writeFile(
      path.join(source, 'clusters/prod/operator.yaml'),
      'chart: GPU-Operator\n',
    );
    for (let i = 0; i < 10; i++) {
      await fs.writeFile(
        path.join(source, `platform/values-${i}.yaml`),
        `chart: gpu-operator\nrevision: ${i}\n`,
      );
    }
    git(root, 'init', '-q', source);
    git(source, 'add', '-A');
    git(
      source,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@e',
      'commit',
      '-qm',
      'c',
    );
    git(source, 'config', 'uploadpack.allowFilter', 'true');
    git(
      root,
      'clone',
      '-q',
      '--sparse',
      '--filter=blob:none',
      '--depth',
      '1',
      `file://${source}`,
      'clone',
    );
    git(
      path.join(root, 'clone'),
      'sparse-checkout',
      'set',
      '--cone',
      'clusters/prod',
    );
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('names the checked-out files holding a needle in any case, and fetches no blob the sparse checkout left out', async () => {
    const clone = path.join(root, 'clone');
    const before = objectsHeld(clone);

    const found = await checkoutFilesContaining(clone, ['gpu-operator']);

    expect(found && [...found]).toEqual(['clusters/prod/operator.yaml']);
    expect(objectsHeld(clone)).toBe(before);
  });
});
